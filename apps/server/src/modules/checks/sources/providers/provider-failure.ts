/**
 * The one vocabulary of a provider's failures, whichever provider it is: each adapter maps its
 * errors (HTTP status, error envelope, captcha page, unreadable body) to one of these, with a Russian
 * reason shown in the run, the one-time check («Источник недоступен: …») and the sources screen.
 * A failure is never «nothing found» and never touches the finding snapshot.
 */
export const PROVIDER_FAILURE_KINDS = [
  'credentials',
  'quota',
  'rate_limited',
  'blocked',
  'unavailable',
  'timeout',
  'unreadable',
  'refused',
  'daily_limit',
] as const;
export type ProviderFailureKind = (typeof PROVIDER_FAILURE_KINDS)[number];

export const PROVIDER_FAILURE_REASONS: Readonly<Record<ProviderFailureKind, string>> = {
  credentials: 'неверные учётные данные поставщика (ключ, логин или пароль)',
  quota: 'исчерпан лимит запросов или баланс у поставщика',
  rate_limited: 'поставщик ограничил частоту запросов',
  blocked: 'поставщик потребовал капчу или заблокировал доступ',
  unavailable: 'поставщик недоступен',
  timeout: 'поставщик не ответил вовремя',
  unreadable: 'ответ поставщика не удалось прочитать',
  refused: 'поставщик отклонил идентификатор',
  // Ours, not the provider's: SOURCE_<TYPE>_DAILY_LIMIT is spent; the request was not sent.
  daily_limit: 'дневной лимит запросов к источнику исчерпан',
};

/** Worth another attempt after a pause; the others fail the same way until someone acts. */
const RETRYABLE: ReadonlySet<ProviderFailureKind> = new Set(['rate_limited', 'unavailable', 'timeout']);

export class ProviderFailure extends Error {
  readonly kind: ProviderFailureKind;
  readonly retryable: boolean;
  /** From the provider's Retry-After, when it sent one. */
  readonly retryAfterMs?: number;
  /** What exactly, in the provider's own words or ours (a code, a missing field); no personal data. */
  readonly detail?: string;
  constructor(kind: ProviderFailureKind, detail?: string, options: { retryAfterMs?: number } = {}) {
    super(detail ? `${PROVIDER_FAILURE_REASONS[kind]} (${detail})` : PROVIDER_FAILURE_REASONS[kind]);
    this.name = 'ProviderFailure';
    this.kind = kind;
    this.detail = detail;
    this.retryable = RETRYABLE.has(kind);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The reason as the run and the screens show it, with the provider named: «… — api-cloud (…)». */
export function failureText(provider: string, failure: ProviderFailure, attempts: number): string {
  const detail = failure.detail ? `, ${failure.detail}` : '';
  const tries = attempts > 1 ? `; попыток: ${attempts}` : '';
  return `${PROVIDER_FAILURE_REASONS[failure.kind]} (${provider}${detail}${tries})`;
}
