/**
 * Finds VINs, INNs, OGRNs and OGRNIPs in text pasted from Excel, a letter or a scanned table, so the
 * hand-entry grid can take a whole list at once.
 */

import { isValidInn, isValidOgrn, isValidOgrnip, validateDocument } from './documents.ts';
import { normalizeVin, VIN_LENGTH, validateVin } from './vin.ts';

export type ExtractedKind = 'vin' | 'inn' | 'ogrn' | 'ogrnip';
type RegistryKind = Exclude<ExtractedKind, 'vin'>;

type ExtractedBase = {
  kind: ExtractedKind;
  /** Normalised value (upper-case Latin VIN, digits for the others). */
  value: string;
  /** The text as it stood in the paste. */
  raw: string;
  /** 1-based line of the first occurrence. */
  line: number;
  /** 1-based lines where the same value appeared again; those are not repeated in the result. */
  duplicateLines: number[];
};

export type ExtractedIdentifier =
  | (ExtractedBase & { status: 'accepted'; warnings: string[] })
  | (ExtractedBase & { status: 'rejected'; reason: string });

export type ExtractOptions = {
  /** Passed to VIN validation (model year); defaults to the current year. */
  currentYear?: number;
};

/** Letters of both alphabets and digits; everything else (tabs, commas, slashes) separates tokens. */
const TOKEN = /[0-9A-Za-zА-ЯЁа-яё]+/g;

/** Characters that can be part of a VIN as typed, Cyrillic look-alikes (and О) included. */
const VIN_LIKE = /^[0-9A-Za-zАВСЕНКМРТХОавсенкмртхо]+$/;

const LABELS: Readonly<Record<string, RegistryKind>> = { ИНН: 'inn', ОГРН: 'ogrn', ОГРНИП: 'ogrnip' };

/** Labels after which a 10-digit number is a phone, even when it happens to pass the INN check. */
const PHONE_LABELS: ReadonlySet<string> = new Set(['ТЕЛ', 'ТЕЛЕФОН', 'МОБ', 'ФАКС', 'PHONE', 'TEL']);

/** "ИНН7707083893" written without a space. */
const GLUED_LABEL = /^(ИНН|ОГРНИП|ОГРН)(\d+)$/i;

/** A number is taken as the labelled one if it comes at most this many tokens after the label. */
const LABEL_REACH = 2;

/**
 * Returns the identifiers in the order they appear, each value once. 17-character tokens that look
 * like a VIN but are not valid come back as rejected with the reason; so do numbers written right
 * after «ИНН», «ОГРН» or «ОГРНИП» that fail their check. Unlabelled numbers that fail their checksum
 * are skipped: they are usually phone, account or contract numbers.
 */
export function extractIdentifiers(text: string, options: ExtractOptions = {}): ExtractedIdentifier[] {
  const result: ExtractedIdentifier[] = [];
  const seen = new Map<string, ExtractedIdentifier>();

  const add = (found: ExtractedIdentifier) => {
    const key = `${found.kind}:${found.value}`;
    const earlier = seen.get(key);
    if (earlier) {
      earlier.duplicateLines.push(found.line);
      return;
    }
    seen.set(key, found);
    result.push(found);
  };

  const lines = text.split(/\r\n|\r|\n/);
  for (const [lineIndex, lineText] of lines.entries()) {
    const line = lineIndex + 1;
    let label: { kind: RegistryKind | 'phone'; at: number } | null = null;
    let position = 0;

    for (const match of lineText.matchAll(TOKEN)) {
      const token = match[0];
      position++;
      const upper = token.toUpperCase();

      const labelKind = PHONE_LABELS.has(upper) ? 'phone' : LABELS[upper];
      if (labelKind) {
        label = { kind: labelKind, at: position };
        continue;
      }

      const glued = GLUED_LABEL.exec(token);
      if (glued) {
        const kind = LABELS[(glued[1] ?? '').toUpperCase()];
        if (kind) {
          add(labelledNumber(kind, glued[2] ?? '', token, line));
        }
        continue;
      }

      if (/^\d+$/.test(token)) {
        if (label && position - label.at <= LABEL_REACH) {
          // A phone label stays in force: "+7 916…" splits into several numbers.
          if (label.kind !== 'phone') {
            add(labelledNumber(label.kind, token, token, line));
            label = null;
          }
          continue;
        }
        const kind = bareNumberKind(token);
        if (kind) {
          add(accepted(kind, token, token, line, []));
        }
        continue;
      }

      if (token.length === VIN_LENGTH && VIN_LIKE.test(token) && /\d/.test(token)) {
        const vin = validateVin(token, options);
        add(
          vin.ok
            ? accepted('vin', vin.value, token, line, vin.warnings)
            : rejected('vin', normalizeVin(token), token, line, vin.error),
        );
      }
    }
  }
  return result;
}

/** Kind of an unlabelled number, only when its checksum holds (a random number passes 1 in 10). */
function bareNumberKind(digits: string): RegistryKind | null {
  switch (digits.length) {
    case 10:
    case 12:
      return isValidInn(digits) ? 'inn' : null;
    case 13:
      return isValidOgrn(digits) ? 'ogrn' : null;
    case 15:
      return isValidOgrnip(digits) ? 'ogrnip' : null;
    default:
      return null;
  }
}

function labelledNumber(labelKind: RegistryKind, digits: string, raw: string, line: number) {
  // "ОГРН" is often written above a column that also holds sole traders' 15-digit OGRNIPs.
  const kind = labelKind === 'ogrn' && digits.length === 15 ? 'ogrnip' : labelKind;
  const check = validateDocument(kind, digits);
  return check.ok
    ? accepted(kind, check.value, raw, line, [])
    : rejected(kind, digits, raw, line, check.error);
}

function accepted(
  kind: ExtractedKind,
  value: string,
  raw: string,
  line: number,
  warnings: string[],
): ExtractedIdentifier {
  return { status: 'accepted', kind, value, raw, line, duplicateLines: [], warnings };
}

function rejected(
  kind: ExtractedKind,
  value: string,
  raw: string,
  line: number,
  reason: string,
): ExtractedIdentifier {
  return { status: 'rejected', kind, value, raw, line, duplicateLines: [], reason };
}
