import { errorResponseSchema } from '@pledgewatch/contract';
import type { FastifyRequest } from 'fastify';

/** Error responses for route schemas, so the OpenAPI document shows the one error shape. */
export const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    number,
    typeof errorResponseSchema
  >;

export const clientInfo = (request: FastifyRequest) => ({
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent'] ?? null,
});

/** Russian letters in Latin as in a Russian passport (ICAO / Order 889), for the ASCII file name. */
const LATIN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: 'ie',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'iu',
  я: 'ia',
};

/** A file name for clients that cannot read `filename*`: Cyrillic transliterated, anything else non-ASCII `_`. */
export function asciiFileName(fileName: string): string {
  let text = '';
  for (const char of fileName.normalize('NFC')) {
    const lower = char.toLowerCase();
    const latin = LATIN[lower];
    if (latin === undefined) {
      text += /[\x20-\x7e]/.test(char) && char !== '"' && char !== '\\' ? char : '_';
    } else {
      text += char === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
    }
  }
  return text;
}

/** Content-Disposition with a Cyrillic file name (RFC 6266 / 5987) and a transliterated ASCII fallback. */
export const attachment = (fileName: string) =>
  `attachment; filename="${asciiFileName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
