import {
  checkEndpoints,
  DOCUMENT_TYPE_LABELS,
  endpointPath,
  findingLines,
  ONE_TIME_CHECK_STATUS_LABELS,
  type OneTimeCheckDocument,
  SOURCE_ANSWER_STATUS_LABELS,
  type SourceAnswer,
  sourceProviderLabel,
  type VinDecoding,
} from '@pledgewatch/contract';
import type { DocumentType } from '@pledgewatch/identifiers';
import type pg from 'pg';
import type { AuthContext } from '../../../lib/auth-context.ts';
import { formatMoscow } from '../../../lib/moscow-time.ts';
import { displayIdentifier, requireOneTimeCheckRow, storedSources } from './one-time-checks.service.ts';

/** A finding's payload as labelled lines (the shared format), with the demo mark spelled out. */
export function documentFindingLines(payload: Record<string, unknown>): { label: string; value: string }[] {
  const lines = findingLines(payload).map(({ label, value }) => ({ label, value }));
  if (payload.demo === true) {
    lines.push({ label: 'Данные', value: 'ДЕМО — демонстрационная запись' });
  }
  return lines;
}

function sourceAnswerText(source: SourceAnswer): string {
  if (source.status === 'skipped') {
    return 'Источник не проверяет документы этого типа';
  }
  if (source.status === 'failed') {
    return `Источник недоступен: ${source.error ?? 'нет ответа'}. Сведения не получены — это не означает их отсутствия`;
  }
  return source.findings.length === 0 ? 'Сведений не найдено' : `Найдено записей: ${source.findings.length}`;
}

function vinLines(decoded: VinDecoding | null): { label: string; value: string }[] {
  if (!decoded) {
    return [];
  }
  return [
    { label: 'Изготовитель', value: decoded.manufacturer ?? 'не определён' },
    { label: 'Страна', value: decoded.country ?? 'не определена' },
    { label: 'Регион', value: decoded.region ?? 'не определён' },
    { label: 'Модельный год', value: decoded.modelYear ? String(decoded.modelYear) : 'не определён' },
    {
      label: 'Контрольная цифра',
      value: decoded.checkDigitValid ? 'верна' : `не совпадает (ожидалась ${decoded.checkDigitExpected})`,
    },
  ];
}

/** Everything the printable document of a one-time check shows, formatted for the page and the PDF. */
export async function getCheckDocument(options: {
  db: pg.Pool;
  auth: AuthContext;
  id: string;
}): Promise<OneTimeCheckDocument> {
  const row = await requireOneTimeCheckRow(options);
  const sources = storedSources(row);
  const asked = sources.filter((source) => source.status !== 'skipped');
  const withFindings = asked.filter((source) => source.status === 'ok' && source.findings.length > 0);
  const failed = asked.filter((source) => source.status === 'failed');
  const parts: string[] = [];
  if (withFindings.length > 0) {
    parts.push(`Найдены сведения: ${withFindings.map((source) => source.name).join(', ')}`);
  } else if (failed.length < asked.length) {
    parts.push(
      failed.length > 0
        ? 'В ответивших источниках сведений не найдено'
        : 'Сведений не найдено ни в одном источнике',
    );
  }
  if (failed.length > 0) {
    parts.push(`недоступны источники: ${failed.map((source) => source.name).join(', ')}`);
  }
  if (asked.length === 0) {
    parts.push('Для этого типа документа нет источников');
  }
  const summary = parts.join('; ');
  const kindLabel = row.kind === 'vin' ? 'VIN' : DOCUMENT_TYPE_LABELS[row.document_type as DocumentType];
  return {
    id: row.id,
    title: 'Результат проверки',
    number: row.number,
    organisation: row.organisation_name,
    checkedBy: row.created_by_name,
    checkedAt: row.created_at.toISOString(),
    checkedAtMoscow: formatMoscow(row.created_at),
    subject: {
      kind: row.kind,
      kindLabel,
      identifier: row.identifier,
      identifierDisplay: displayIdentifier(row),
      decoding:
        row.kind === 'vin'
          ? vinLines(row.decoded as VinDecoding | null)
          : [{ label: 'Тип документа', value: kindLabel }],
      warnings: row.warnings,
    },
    status: row.status,
    statusLabel: ONE_TIME_CHECK_STATUS_LABELS[row.status],
    summary: summary.charAt(0).toUpperCase() + summary.slice(1),
    sources: sources.map((source) => ({
      type: source.type,
      name: source.name,
      answeredBy: sourceProviderLabel(source),
      status: source.status,
      statusLabel: SOURCE_ANSWER_STATUS_LABELS[source.status],
      answer: sourceAnswerText(source),
      findings: source.findings.map((finding) => ({
        key: finding.key,
        lines: documentFindingLines(finding.payload),
      })),
    })),
    demo: row.demo,
    disclaimer:
      'Документ сформирован автоматически по данным источников на момент проверки. ' +
      'Недоступный источник не означает отсутствия сведений.' +
      (row.demo ? ' Документ содержит демонстрационные данные (ДЕМО), а не сведения реальных реестров.' : ''),
    pdfUrl: endpointPath(checkEndpoints.oneTimeCheckPdf.path, { id: row.id }),
  };
}
