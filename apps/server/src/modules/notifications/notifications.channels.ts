import { createHmac } from 'node:crypto';
import {
  OUTBOUND_MESSAGES,
  OutboundError,
  type OutboundPolicy,
  type OutboundResponse,
  outboundRequest,
} from '../../lib/outbound/outbound-request.ts';

/**
 * The HTTP channels, through lib/outbound (address checks, pinned DNS, no redirects). Each call has a
 * timeout; any non-2xx answer, a redirect, a timeout or a refused connection is an error with a short
 * Russian message for the delivery log (never a secret, never the receiver's body).
 */

export const SIGNATURE_HEADER = 'X-Pledgewatch-Signature';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the receiver recomputes it and rejects old `t`. */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** A failed send; `permanent` when no retry can help (a refused address, a malformed URL). */
export class ChannelFailure extends Error {
  readonly permanent: boolean;
  constructor(message: string, permanent = false) {
    super(message);
    this.name = 'ChannelFailure';
    this.permanent = permanent;
  }
}

/**
 * A short Russian reason for the delivery log. Never the remote body, and one text for every
 * transport error (refused, reset, timeout…) so the log cannot be used to tell open ports from closed.
 */
function describeFailure(error: unknown): ChannelFailure {
  if (error instanceof OutboundError) {
    if (error.permanent) {
      return new ChannelFailure(error.message, true);
    }
    if (error.kind === 'dns') {
      return new ChannelFailure(OUTBOUND_MESSAGES.dns);
    }
  }
  return new ChannelFailure(OUTBOUND_MESSAGES.connect);
}

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) {
    return `Получатель ответил перенаправлением (HTTP ${status}); перенаправления не выполняются`;
  }
  return `Получатель ответил HTTP ${status}`;
}

export async function sendWebhook(options: {
  url: string;
  secret: string;
  body: string;
  idempotencyKey: string;
  timeoutMs: number;
  policy: OutboundPolicy;
  now?: Date;
}): Promise<void> {
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  let response: OutboundResponse;
  try {
    response = await outboundRequest(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Pledgewatch-Webhook/1.0',
        [IDEMPOTENCY_HEADER]: options.idempotencyKey,
        'X-Pledgewatch-Delivery': options.idempotencyKey,
        [SIGNATURE_HEADER]: signWebhook(options.secret, options.body, timestamp),
      },
      body: options.body,
      timeoutMs: options.timeoutMs,
      policy: options.policy,
      readBody: false,
    });
  } catch (error) {
    throw describeFailure(error);
  }
  if (response.status < 200 || response.status >= 300) {
    throw new ChannelFailure(describeStatus(response.status));
  }
}

/**
 * Telegram's base URL is the operator's TELEGRAM_API_URL (trusted: it may be an internal proxy);
 * the tenant gives only the bot token and chat id, both checked against strict patterns, so the
 * host never comes from a tenant. Telegram's own `description` (e.g. «chat not found») is kept.
 */
export async function sendTelegram(options: {
  apiUrl: string;
  botToken: string;
  chatId: string;
  text: string;
  timeoutMs: number;
}): Promise<void> {
  let response: OutboundResponse;
  try {
    // The token pattern allows only [0-9A-Za-z:_-]; anything else (an old row) is escaped, never a path.
    const token = options.botToken.replace(/[^A-Za-z0-9:_-]/g, (char) => encodeURIComponent(char));
    response = await outboundRequest(`${options.apiUrl}/bot${token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        chat_id: options.chatId,
        text: options.text,
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
      }),
      timeoutMs: options.timeoutMs,
      policy: { allowedRanges: [], trusted: true },
      readBody: true,
      maxResponseBytes: 64 * 1024,
    });
  } catch (error) {
    const failure = describeFailure(error);
    throw new ChannelFailure(`Telegram: ${failure.message}`, failure.permanent);
  }
  let answer: { ok?: boolean; description?: unknown } = {};
  try {
    answer = JSON.parse(response.body.toString('utf8')) as typeof answer;
  } catch {
    // Not JSON: the status below says enough.
  }
  if (response.status < 200 || response.status >= 300 || answer.ok !== true) {
    const description = (typeof answer.description === 'string' ? answer.description : '')
      .split(options.botToken)
      .join('***')
      .replace(/\s+/g, ' ')
      .slice(0, 200);
    throw new ChannelFailure(
      `Telegram ответил HTTP ${response.status}${description ? `: ${description}` : ''}`,
    );
  }
}
