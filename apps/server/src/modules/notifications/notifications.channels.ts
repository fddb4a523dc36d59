import { createHmac } from 'node:crypto';

/**
 * The HTTP channels. Each call has a timeout; any non-2xx answer, a redirect, a timeout or a refused
 * connection is an error with a Russian message for the delivery log (never containing a secret).
 */

export const SIGNATURE_HEADER = 'X-Pledgewatch-Signature';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the receiver recomputes it and rejects old `t`. */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as Error & { cause?: { code?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') {
    return `Нет ответа за ${Math.round(timeoutMs / 1000)} с`;
  }
  const code = err.cause?.code;
  if (code === 'ECONNREFUSED') {
    return 'Соединение отклонено (ECONNREFUSED)';
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return 'Адрес не найден (DNS)';
  }
  if (code === 'ECONNRESET') {
    return 'Соединение разорвано (ECONNRESET)';
  }
  return `Ошибка соединения${code ? ` (${code})` : ''}`;
}

async function readSnippet(response: Response): Promise<string> {
  try {
    return (await response.text()).replace(/\s+/g, ' ').trim().slice(0, 200);
  } catch {
    return '';
  }
}

export async function sendWebhook(options: {
  url: string;
  secret: string;
  body: string;
  idempotencyKey: string;
  timeoutMs: number;
  now?: Date;
}): Promise<void> {
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Pledgewatch-Webhook/1.0',
        [IDEMPOTENCY_HEADER]: options.idempotencyKey,
        'X-Pledgewatch-Delivery': options.idempotencyKey,
        [SIGNATURE_HEADER]: signWebhook(options.secret, options.body, timestamp),
      },
      body: options.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    throw new Error(describeFailure(error, options.timeoutMs));
  }
  if (response.status < 200 || response.status >= 300) {
    const snippet = await readSnippet(response);
    throw new Error(`Получатель ответил HTTP ${response.status}${snippet ? `: ${snippet}` : ''}`);
  }
  await response.body?.cancel();
}

export async function sendTelegram(options: {
  apiUrl: string;
  botToken: string;
  chatId: string;
  text: string;
  timeoutMs: number;
}): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${options.apiUrl}/bot${options.botToken}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        chat_id: options.chatId,
        text: options.text,
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
      }),
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    throw new Error(`Telegram: ${describeFailure(error, options.timeoutMs)}`);
  }
  let answer: { ok?: boolean; description?: string } = {};
  try {
    answer = (await response.json()) as typeof answer;
  } catch {
    // Not JSON: the status below says enough.
  }
  if (!response.ok || answer.ok !== true) {
    const description = (answer.description ?? '').split(options.botToken).join('***').slice(0, 200);
    throw new Error(`Telegram ответил HTTP ${response.status}${description ? `: ${description}` : ''}`);
  }
}
