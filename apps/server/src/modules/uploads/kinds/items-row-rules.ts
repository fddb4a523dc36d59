import { validateItemRow } from '@pledgewatch/contract/item-rules';
import { validateVin } from '@pledgewatch/identifiers';
import {
  CONTRACT_NUMBER_SYNONYMS,
  DOCUMENT_NUMBER_SYNONYMS,
  DOCUMENT_TYPE_SYNONYMS,
  LABEL_SYNONYMS,
  PLEDGOR_NAME_SYNONYMS,
  VIN_SYNONYMS,
} from '../header/column-synonyms.ts';
import { normaliseHeader } from '../header/header-names.ts';
import type { UploadRowRules } from './upload-kind.ts';

/** The document a number column holds by its header alone (normalised header → type). */
const DOCUMENT_TYPE_OF_HEADER: Record<string, string> = {
  инн: 'inn',
  'инн залогодателя': 'inn',
  огрн: 'ogrn',
  огрнип: 'ogrnip',
  паспорт: 'passport_rf',
  'паспорт залогодателя': 'passport_rf',
  'серия и номер паспорта': 'passport_rf',
};

/**
 * The row rules of a portfolio file (items-upload.ts): its columns and each row's check by the
 * portfolio's identifier rules. Loaded by the reader thread too, so it imports no database code.
 */
export const itemsRowRules: UploadRowRules = {
  kind: 'items',
  columns: [
    { field: 'vin', title: 'VIN', aliases: VIN_SYNONYMS },
    { field: 'documentType', title: 'Тип документа', aliases: DOCUMENT_TYPE_SYNONYMS },
    { field: 'number', title: 'Номер документа', aliases: DOCUMENT_NUMBER_SYNONYMS },
    { field: 'label', title: 'Метка', aliases: LABEL_SYNONYMS },
    { field: 'contractNumber', title: 'Номер договора', aliases: CONTRACT_NUMBER_SYNONYMS },
    { field: 'pledgorName', title: 'Залогодатель', aliases: PLEDGOR_NAME_SYNONYMS },
  ],
  keyFields: ['vin', 'number'],
  missingHeaderMessage:
    'Не найдена строка заголовков: в первых 30 строках файла нужна строка со столбцом «VIN» или «Номер документа» ' +
    '(а также «Тип документа», «Метка», «Номер договора», «Залогодатель»). Скачайте шаблон',

  impliedValues(headers) {
    // A column headed «ИНН» or «Серия и номер паспорта» says what its numbers are.
    const header = headers.get('number');
    const type =
      !headers.has('documentType') && header ? DOCUMENT_TYPE_OF_HEADER[normaliseHeader(header)] : undefined;
    return type ? { documentType: type } : ({} as Record<string, string>);
  },
  templateRows: [
    ['XTA210740Y1234565', '', '', 'LADA 2107, белый', 'КД-2024/001', 'Иванов Иван Иванович'],
    ['Z94CB41AAER123456', '', '', 'Hyundai Solaris', 'КД-2024/002', 'Петрова Анна Сергеевна'],
    ['', 'Паспорт РФ', '4506 123456', 'Паспорт залогодателя', 'КД-2024/002', 'Петрова Анна Сергеевна'],
    ['', 'ИНН', '7707083893', 'ПАО «Пример»', 'ДЛ-17/2024', 'ПАО «Пример»'],
  ],
  looksLikeData(values) {
    return values.some((value) => validateVin(value).ok);
  },

  validateRow(values) {
    const result = validateItemRow(values);
    if (!result.ok) {
      return { ok: false, problems: result.problems };
    }
    const { row } = result;
    return {
      ok: true,
      copyFields: [
        row.kind,
        row.documentType,
        row.identifier,
        row.label,
        row.contractNumber,
        row.pledgorName,
        row.warning,
      ],
    };
  },
};
