import { formatPeopleDate, SOURCE_TYPES, type SourceAlert } from '@pledgewatch/contract';
import type { MailMessage } from '../../lib/mailer.ts';
import type { RuleRow } from './notifications.queries.ts';

/**
 * What a source alert says: which source, what happened (failures in a row with the last error, or
 * how long its data has not been refreshed), since when, and where to look.
 */

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const when = (iso: string | null) => (iso ? `${formatPeopleDate(iso)} (МСК)` : 'никогда');

/** A made-up alert for «Отправить тест» of a source rule: what a real one looks like. */
export function sampleSourceAlert(rule: RuleRow, now: Date, appUrl: string): SourceAlert {
  const type = rule.source_type ?? 'wanted';
  const failure = rule.subject === 'source_failure';
  return {
    kind: failure ? 'failure' : 'stale',
    sourceType: type,
    sourceName: SOURCE_TYPES[type].name,
    consecutiveFailures: failure ? rule.failure_threshold : 0,
    failureThreshold: failure ? rule.failure_threshold : null,
    lastError: failure ? 'поставщик недоступен (api-cloud, HTTP 503) — пример' : null,
    lastRefreshAt: new Date(now.getTime() - (rule.stale_hours + 1) * 3_600_000).toISOString(),
    staleHours: failure ? null : rule.stale_hours,
    detectedAt: now.toISOString(),
    url: `${appUrl}/monitoring/sources`,
  };
}

/** One line for the subject, the Telegram heading and the delivery log. */
export function sourceAlertTitle(alert: SourceAlert): string {
  const name = `«${alert.sourceName}»`;
  switch (alert.kind) {
    case 'failure':
      return `Источник ${name} не отвечает: ошибок подряд — ${alert.consecutiveFailures}`;
    case 'recovered':
      return `Источник ${name} снова отвечает`;
    case 'stale':
      return `Данные источника ${name} не обновлялись больше ${alert.staleHours ?? 0} ч`;
    case 'refreshed':
      return `Данные источника ${name} обновлены`;
  }
}

function sourceAlertLines(alert: SourceAlert): string[] {
  const lines = [`Источник: ${alert.sourceName}`];
  if (alert.kind === 'failure') {
    lines.push(
      `Ошибок подряд: ${alert.consecutiveFailures} (порог правила — ${alert.failureThreshold ?? 1})`,
      `Последняя ошибка: ${alert.lastError ?? '—'}`,
      'Пока источник не отвечает, его проверки отмечаются как неудавшиеся, а не «чисто».',
    );
  } else if (alert.kind === 'recovered') {
    lines.push('Источник ответил успешно; следующая проверка пройдёт как обычно.');
  } else {
    lines.push(`Последнее обновление данных: ${when(alert.lastRefreshAt)}`);
    if (alert.kind === 'stale') {
      lines.push(`Допустимый срок по правилу: ${alert.staleHours ?? 0} ч`);
    }
  }
  lines.push(`Обнаружено: ${formatPeopleDate(alert.detectedAt)} (МСК)`, `Открыть: ${alert.url}`);
  return lines;
}

const introOf = (ruleName: string, test: boolean) =>
  test
    ? `Это тестовое уведомление правила «${ruleName}». Так будет выглядеть оповещение об источнике (данные ниже — пример).`
    : `Оповещение об источнике данных по правилу «${ruleName}».`;

export function renderSourceAlertEmail(
  to: string,
  ruleName: string,
  alert: SourceAlert,
  test = false,
): MailMessage {
  const title = `${test ? 'Тест: ' : ''}${sourceAlertTitle(alert)}`;
  const intro = introOf(ruleName, test);
  const footer = 'Вы получили это письмо, потому что адрес указан в правиле уведомлений Pledgewatch.';
  const lines = sourceAlertLines(alert);
  const text = ['Здравствуйте!', '', intro, '', title, ...lines, '', footer, '', '— Pledgewatch'].join('\n');
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1a1a1a">
<p>Здравствуйте!</p>
<p>${escapeHtml(intro)}</p>
<div style="border:1px solid #ddd;border-radius:6px;padding:12px 16px;margin:12px 0">
<p style="margin:0 0 6px;font-size:16px"><b>${escapeHtml(title)}</b></p>
${lines.map((line) => `<p style="margin:0">${escapeHtml(line)}</p>`).join('\n')}
</div>
<p style="font-size:12px;color:#555">${escapeHtml(footer)}</p>
<p style="font-size:12px;color:#555">— Pledgewatch</p>
</body></html>`;
  return { to, subject: `${title} — Pledgewatch`, text, html };
}

export function renderSourceAlertTelegram(ruleName: string, alert: SourceAlert, test = false): string {
  return [
    `<b>${escapeHtml(`${test ? 'Тест: ' : ''}${sourceAlertTitle(alert)}`)}</b>`,
    escapeHtml(introOf(ruleName, test)),
    ...sourceAlertLines(alert).map(escapeHtml),
  ].join('\n');
}
