import {
  DOCUMENT_TYPE_LABELS,
  EVENT_TYPES,
  findingFieldLabel,
  formatFindingValue,
  SEVERITIES,
  SOURCE_TYPES,
  type SourceType,
  type WebhookEvent,
} from '@pledgewatch/contract';
import type { MailMessage } from '../../lib/mailer.ts';
import { formatMoscow } from '../../lib/moscow-time.ts';
import type { EventRow } from './notifications.queries.ts';

/**
 * What a notification says. Every message carries the change itself — the item, the source, the
 * event, what the record was and what it is now, when it was found — and a link to the item.
 */

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export interface ChangeLine {
  label: string;
  before: string;
  after: string;
  changed: boolean;
}

/** The record before and after, field by field, with Russian field names; changed fields first. */
export function changeLines(event: Pick<EventRow, 'before' | 'after'>): ChangeLine[] {
  const keys = [...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})])].filter(
    (key) => key !== 'demo',
  );
  const lines = keys.map((key) => {
    const before = event.before ? formatFindingValue(key, event.before[key]) : '—';
    const after = event.after ? formatFindingValue(key, event.after[key]) : '—';
    return { label: findingFieldLabel(key), before, after, changed: before !== after };
  });
  return [...lines.filter((line) => line.changed), ...lines.filter((line) => !line.changed)];
}

export interface EventView {
  id: string;
  typeLabel: string;
  severityLabel: string;
  sourceName: string;
  itemTitle: string;
  identifier: string;
  label: string | null;
  contractNumber: string | null;
  detectedAt: string;
  /** One line: «было: нет записи» / «стало: нет записи» / «изменилось полей: 2». */
  summary: string;
  lines: ChangeLine[];
  demo: boolean;
  url: string;
}

export function itemUrl(appUrl: string, event: EventRow): string {
  const params = new URLSearchParams({
    entity: event.item_kind,
    search: event.identifier,
    item: event.item_id,
    event: event.id,
  });
  return `${appUrl}/monitoring/items?${params}`;
}

export function toEventView(event: EventRow, appUrl: string): EventView {
  const info = EVENT_TYPES[event.event_type];
  const documentLabel = event.document_type
    ? (DOCUMENT_TYPE_LABELS[event.document_type as keyof typeof DOCUMENT_TYPE_LABELS] ?? event.document_type)
    : null;
  const lines = changeLines(event);
  const summary = !event.before
    ? 'Новая запись в источнике'
    : !event.after
      ? 'Запись исчезла из источника'
      : `Изменилось полей: ${lines.filter((line) => line.changed).length}`;
  return {
    id: event.id,
    typeLabel: info?.label ?? event.event_type,
    severityLabel: SEVERITIES[event.severity]?.label ?? event.severity,
    sourceName: SOURCE_TYPES[event.source_type as SourceType]?.name ?? event.source_type,
    itemTitle: documentLabel ? `${documentLabel} ${event.identifier}` : `VIN ${event.identifier}`,
    identifier: event.identifier,
    label: event.label,
    contractNumber: event.contract_number,
    detectedAt: formatMoscow(event.detected_at),
    summary,
    lines,
    demo: event.demo,
    url: itemUrl(appUrl, event),
  };
}

export function toWebhookEvent(event: EventRow, appUrl: string): WebhookEvent {
  return {
    id: event.id,
    type: event.event_type,
    typeLabel: EVENT_TYPES[event.event_type]?.label ?? event.event_type,
    severity: event.severity,
    source: event.source_type,
    sourceName: SOURCE_TYPES[event.source_type as SourceType]?.name ?? event.source_type,
    before: event.before,
    after: event.after,
    detectedAt: event.detected_at.toISOString(),
    url: itemUrl(appUrl, event),
    item: {
      id: event.item_id,
      kind: event.item_kind,
      identifier: event.identifier,
      label: event.label,
      contractNumber: event.contract_number,
    },
  };
}

/** A made-up event for «Отправить тест»: shows the receiver exactly what a real one looks like. */
export function sampleEvent(organisationId: string, now: Date): EventRow {
  return {
    id: '00000000-0000-4000-8000-000000000000',
    organisation_id: organisationId,
    run_id: null,
    event_type: 'restriction_added',
    severity: 'high',
    source_type: 'restrictions',
    finding_key: 'TEST-0001',
    before: null,
    after: {
      record_id: 'TEST-0001',
      kind: 'Запрет на регистрационные действия',
      imposed_at: '2026-01-15',
      imposed_by: 'Тестовый отдел судебных приставов',
    },
    demo: true,
    detected_at: now,
    item_id: '00000000-0000-4000-8000-000000000000',
    item_kind: 'vin',
    document_type: null,
    identifier: 'XTA21099000000000',
    label: 'Тестовый объект',
    contract_number: 'ТЕСТ-1',
  };
}

// ─── E-mail ─────────────────────────────────────────────────────────────────────────────────

export type MessageKind = 'event' | 'digest' | 'test';

export interface NotificationContent {
  kind: MessageKind;
  ruleName: string;
  /** For digests: «за 12.03.2026» or «по итогам проверки от 12.03.2026 14:05 (МСК)». */
  period?: string;
  events: EventView[];
}

const TELEGRAM_LIMIT = 4000;
const DIGEST_LIST_LIMIT = 200;

export function subjectOf(content: NotificationContent): string {
  if (content.kind === 'test') {
    return `Тестовое уведомление «${content.ruleName}» — Pledgewatch`;
  }
  if (content.kind === 'digest') {
    return `Сводка событий ${content.period ?? ''}: ${content.events.length} — Pledgewatch`.replace(
      '  ',
      ' ',
    );
  }
  const event = content.events[0]!;
  return `[${event.severityLabel}] ${event.typeLabel}: ${event.identifier} — Pledgewatch`;
}

function introOf(content: NotificationContent): string {
  if (content.kind === 'test') {
    return `Это тестовое уведомление правила «${content.ruleName}». Так будет выглядеть сообщение о событии (данные ниже — пример).`;
  }
  if (content.kind === 'digest') {
    return `Сводка по правилу «${content.ruleName}» ${content.period ?? ''}: событий — ${content.events.length}.`;
  }
  return `Новое событие по правилу «${content.ruleName}».`;
}

function eventText(event: EventView): string[] {
  return [
    `${event.typeLabel} (важность: ${event.severityLabel})${event.demo ? ' [ДЕМО]' : ''}`,
    `Объект: ${event.itemTitle}${event.label ? `, ${event.label}` : ''}${event.contractNumber ? `, договор ${event.contractNumber}` : ''}`,
    `Источник: ${event.sourceName}`,
    `Обнаружено: ${event.detectedAt}`,
    `Изменение: ${event.summary}`,
    ...event.lines.map((line) =>
      line.changed ? `  ${line.label}: ${line.before} → ${line.after}` : `  ${line.label}: ${line.after}`,
    ),
    `Открыть: ${event.url}`,
  ];
}

function eventHtml(event: EventView): string {
  const rows = event.lines
    .map(
      (line) =>
        `<tr><td style="padding:4px 8px;color:#555">${escapeHtml(line.label)}</td>` +
        `<td style="padding:4px 8px${line.changed ? ';color:#b71c1c;text-decoration:line-through' : ''}">${escapeHtml(line.before)}</td>` +
        `<td style="padding:4px 8px${line.changed ? ';font-weight:bold' : ''}">${escapeHtml(line.after)}</td></tr>`,
    )
    .join('');
  const item = [event.itemTitle, event.label, event.contractNumber ? `договор ${event.contractNumber}` : null]
    .filter(Boolean)
    .join(', ');
  return `<div style="border:1px solid #ddd;border-radius:6px;padding:12px 16px;margin:12px 0">
<p style="margin:0 0 6px;font-size:16px"><b>${escapeHtml(event.typeLabel)}</b> · важность: ${escapeHtml(event.severityLabel)}${event.demo ? ' · <span style="color:#e65100">ДЕМО</span>' : ''}</p>
<p style="margin:0">Объект: <b>${escapeHtml(item)}</b></p>
<p style="margin:0">Источник: ${escapeHtml(event.sourceName)}</p>
<p style="margin:0">Обнаружено: ${escapeHtml(event.detectedAt)}</p>
<p style="margin:6px 0 0">Изменение: ${escapeHtml(event.summary)}</p>
${rows ? `<table style="border-collapse:collapse;margin-top:6px;font-size:14px"><tr><th style="text-align:left;padding:4px 8px">Поле</th><th style="text-align:left;padding:4px 8px">Было</th><th style="text-align:left;padding:4px 8px">Стало</th></tr>${rows}</table>` : ''}
<p style="margin:8px 0 0"><a href="${escapeHtml(event.url)}" style="color:#1565c0">Открыть объект в Pledgewatch</a></p>
</div>`;
}

export function renderEmail(to: string, content: NotificationContent): MailMessage {
  const events = content.events.slice(0, DIGEST_LIST_LIMIT);
  const rest = content.events.length - events.length;
  const more = rest > 0 ? `…и ещё событий: ${rest}. Все события — в разделе «Объекты» Pledgewatch.` : null;
  const footer = 'Вы получили это письмо, потому что адрес указан в правиле уведомлений Pledgewatch.';
  const text = [
    'Здравствуйте!',
    '',
    introOf(content),
    '',
    ...events.flatMap((event, index) => [
      ...(events.length > 1 ? [`${index + 1}.`] : []),
      ...eventText(event),
      '',
    ]),
    ...(more ? [more, ''] : []),
    footer,
    '',
    '— Pledgewatch',
  ].join('\n');
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1a1a1a">
<p>Здравствуйте!</p>
<p>${escapeHtml(introOf(content))}</p>
${events.map(eventHtml).join('\n')}
${more ? `<p>${escapeHtml(more)}</p>` : ''}
<p style="font-size:12px;color:#555">${escapeHtml(footer)}</p>
<p style="font-size:12px;color:#555">— Pledgewatch</p>
</body></html>`;
  return { to, subject: subjectOf(content), text, html };
}

// ─── Telegram ───────────────────────────────────────────────────────────────────────────────

/** Telegram's HTML subset, cut to fit one message. */
export function renderTelegram(content: NotificationContent): string {
  const head = `<b>${escapeHtml(subjectOf(content).replace(/ — Pledgewatch$/, ''))}</b>\n${escapeHtml(introOf(content))}`;
  const blocks: string[] = [];
  let length = head.length;
  let shown = 0;
  for (const event of content.events) {
    const changed = event.lines.filter((line) => line.changed).slice(0, 6);
    const block = [
      `\n<b>${escapeHtml(event.typeLabel)}</b> · ${escapeHtml(event.severityLabel)}${event.demo ? ' · ДЕМО' : ''}`,
      `Объект: ${escapeHtml(event.itemTitle)}${event.label ? `, ${escapeHtml(event.label)}` : ''}${event.contractNumber ? `, договор ${escapeHtml(event.contractNumber)}` : ''}`,
      `Источник: ${escapeHtml(event.sourceName)}; обнаружено ${escapeHtml(event.detectedAt)}`,
      `${escapeHtml(event.summary)}`,
      ...changed.map(
        (line) => `• ${escapeHtml(line.label)}: ${escapeHtml(line.before)} → ${escapeHtml(line.after)}`,
      ),
      `<a href="${escapeHtml(event.url)}">Открыть</a>`,
    ].join('\n');
    if (length + block.length > TELEGRAM_LIMIT - 80) {
      break;
    }
    blocks.push(block);
    length += block.length;
    shown += 1;
  }
  const rest = content.events.length - shown;
  return `${head}\n${blocks.join('\n')}${rest > 0 ? `\n\n…и ещё событий: ${rest}` : ''}`;
}
