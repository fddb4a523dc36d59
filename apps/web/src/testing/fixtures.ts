import {
  meResponseSchema,
  type Role,
  type SavedViewList,
  savedViewEndpoints,
  savedViewsResponseSchema,
  type UploadDetail,
  type UploadStatus,
} from '@pledgewatch/contract';
import { authEndpoints } from '@pledgewatch/contract/endpoints/auth';
import type { StubAnswer } from './render-route';

/** A signed-in user in the contract's shape. */
export const userFixture = (role: Role = 'analyst') => ({
  id: '00000000-0000-4000-8000-0000000000a1',
  email: 'analyst@bank.example',
  fullName: 'Иванова Анна Петровна',
  role,
  isStaff: false,
  emailVerified: true,
  organisation: { id: '00000000-0000-4000-8000-0000000000b1', name: 'Банк «Пример»' },
  createdAt: '2026-01-10T08:00:00.000Z',
});

/** The current user's answer (`GET /auth/me`) for a role. */
export const meAnswer = (role: Role = 'analyst'): StubAnswer => ({
  path: authEndpoints.me.path,
  schema: meResponseSchema,
  body: { user: userFixture(role) },
});

/** A portfolio vehicle as the items list answers it (a decoded Lada VIN, never checked). */
export const vinItemFixture = {
  id: '7d0f2c1e-0000-4000-8000-000000000010',
  kind: 'vin',
  identifier: 'XTA210990Y2765432',
  displayIdentifier: 'XTA210990Y2765432',
  documentType: null,
  documentTypeLabel: null,
  label: 'Lada 2109',
  contractNumber: 'КД-15/2024',
  pledgorName: 'Петров Пётр',
  status: 'active',
  origin: 'form',
  uploadId: null,
  createdAt: '2026-02-01T09:00:00.000Z',
  updatedAt: '2026-02-01T09:00:00.000Z',
  archivedAt: null,
  lastCheckedAt: null,
  vin: {
    wmi: 'XTA',
    region: 'Европа',
    country: 'Россия',
    manufacturer: 'Lada (АвтоВАЗ)',
    modelYear: 2000,
    checkDigitValid: true,
    checkDigitExpected: '9',
    warning: null,
  },
};

/** The user's saved views of a list (`GET /saved-views`): one view, not the default. */
export const savedViewsAnswer = (view: { list: SavedViewList; name: string; query: string }): StubAnswer => ({
  method: 'GET',
  path: savedViewEndpoints.list.path,
  schema: savedViewsResponseSchema,
  body: {
    items: [
      {
        id: '7d0f2c1e-0000-4000-8000-0000000000a1',
        ...view,
        isDefault: false,
        createdAt: '2026-11-20T08:00:00.000Z',
        updatedAt: '2026-11-20T08:00:00.000Z',
      },
    ],
  },
});

/** The id of the file upload the upload fixtures describe. */
export const UPLOAD_ID = '7d0f2c1e-0000-4000-8000-0000000000c1';

/** A checked file upload of three rows (two to add, one rejected) in a status, as `GET /uploads/:id` answers it. */
export const uploadDetailFixture = (
  status: UploadStatus,
  kind: UploadDetail['kind'] = 'items',
): UploadDetail => ({
  id: UPLOAD_ID,
  kind,
  fileName: 'bank-list.csv',
  fileSize: 2048,
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ';',
  status,
  statusLabel: `метка ${status}`,
  autoConfirm: false,
  progress: { rowsProcessed: 3, percent: status === 'received' ? null : 40 },
  counts: { rows: 3, accepted: 2, restored: 0, duplicates: 0, rejected: 1, skipped: 1 },
  errorMessage: status === 'failed' ? 'Файл повреждён' : null,
  author: null,
  createdAt: '2026-02-01T09:00:00.000Z',
  updatedAt: '2026-02-01T09:00:00.000Z',
  finishedAt: null,
  columns: [{ field: 'vin', title: 'VIN', header: 'VIN' }],
  ignoredColumns: ['№ п/п'],
  headerRow: 4,
  skippedAbove: 'Строки 1–3 пропущены: заголовок найден в строке 4',
  sheets: [
    { index: 0, name: 'Инструкция' },
    { index: 1, name: 'Портфель' },
  ],
  sheet: 1,
  fileColumns: [
    { index: 0, header: '№ п/п', samples: ['1', '2'], field: null, match: null, ambiguous: false },
    {
      index: 1,
      header: 'VIN (идентификационный номер)',
      samples: ['XTA210990Y2765432', 'BADVIN'],
      field: status === 'needs_mapping' ? null : 'vin',
      match: status === 'needs_mapping' ? null : 'synonym',
      ambiguous: false,
    },
  ],
  fields: [
    { field: 'vin', title: 'VIN', key: true },
    { field: 'label', title: 'Метка', key: false },
  ],
  mapping: {
    source: 'auto',
    question:
      status === 'needs_mapping'
        ? 'Не найден столбец «VIN» или «Номер документа»: укажите, что хранится в каждом столбце'
        : null,
  },
  skippedRows: [{ rowNumber: 7, text: 'Итого: 2 единицы' }],
  preview: [
    {
      rowNumber: 2,
      kind: 'vin',
      documentType: null,
      identifier: 'XTA210990Y2765432',
      displayIdentifier: 'XTA210990Y2765432',
      label: 'Lada 2109',
      contractNumber: 'КД-15/2024',
      pledgorName: 'Петров Пётр',
      warning: null,
    },
  ],
  errors: [{ rowNumber: 4, field: 'vin', message: 'VIN: 17 символов', values: { vin: 'BADVIN' } }],
});
