import {
  meResponseSchema,
  type Role,
  type SavedViewList,
  savedViewEndpoints,
  savedViewsResponseSchema,
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
