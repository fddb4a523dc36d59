import { UploadFileError } from './upload-file-error.ts';

export type SniffedFormat = 'csv' | 'xlsx';

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((byte, index) => bytes[index] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** Known binary formats people upload by mistake, with the reason we give. */
const BINARY_SIGNATURES: { signature: number[]; message: string }[] = [
  {
    signature: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    message: 'Файл в старом формате Excel (XLS) или Word: сохраните его как XLSX или CSV',
  },
  {
    signature: [0x89, 0x50, 0x4e, 0x47],
    message: 'Это изображение PNG, а не таблица: загрузите файл CSV или XLSX',
  },
  {
    signature: [0xff, 0xd8, 0xff],
    message: 'Это изображение JPEG, а не таблица: загрузите файл CSV или XLSX',
  },
  { signature: ascii('GIF8'), message: 'Это изображение GIF, а не таблица: загрузите файл CSV или XLSX' },
  { signature: ascii('%PDF'), message: 'Это документ PDF, а не таблица: загрузите файл CSV или XLSX' },
  { signature: [0x1f, 0x8b], message: 'Это архив GZIP: распакуйте его и загрузите файл CSV или XLSX' },
  { signature: ascii('Rar!'), message: 'Это архив RAR: распакуйте его и загрузите файл CSV или XLSX' },
  {
    signature: [0x37, 0x7a, 0xbc, 0xaf],
    message: 'Это архив 7z: распакуйте его и загрузите файл CSV или XLSX',
  },
  { signature: ascii('{\\rtf'), message: 'Это документ RTF, а не таблица: загрузите файл CSV или XLSX' },
];

export const NOT_A_TABLE_MESSAGE =
  'Файл не похож на таблицу CSV или XLSX: загрузите файл CSV (текст) или XLSX';

/**
 * Decides by content, never by file name: a ZIP container is an XLSX candidate, text is CSV, and
 * anything with binary bytes is refused.
 */
export function sniffFormat(head: Uint8Array): SniffedFormat {
  if (head.length === 0) {
    throw new UploadFileError('Файл пустой');
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    return 'xlsx';
  }
  if (startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    throw new UploadFileError('Файл — пустой ZIP-архив, а не XLSX');
  }
  for (const { signature, message } of BINARY_SIGNATURES) {
    if (startsWith(head, signature)) {
      throw new UploadFileError(message);
    }
  }
  // UTF-16 text (Excel's "Unicode text") has NUL bytes too, but is rare enough to refuse clearly.
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) {
    throw new UploadFileError('Файл в кодировке UTF-16: сохраните его как CSV в UTF-8 или Windows-1251');
  }
  let control = 0;
  const sample = head.subarray(0, 8192);
  for (const byte of sample) {
    if (byte === 0) {
      throw new UploadFileError(NOT_A_TABLE_MESSAGE);
    }
    // Tab, line feed, carriage return and form feed are normal in text.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) {
      control++;
    }
  }
  if (control > Math.max(2, sample.length / 100)) {
    throw new UploadFileError(NOT_A_TABLE_MESSAGE);
  }
  return 'csv';
}
