import { meResponseSchema, type Role } from '@pledgewatch/contract';
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
