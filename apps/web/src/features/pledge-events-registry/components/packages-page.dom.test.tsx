// @vitest-environment happy-dom
import { pledgePackageDetailSchema, pledgePackagesResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meAnswer } from '@/testing/fixtures';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import PackagesPage from './packages-page';

const ID = '00000000-0000-4000-8000-0000000000c1';
const sentPackage = {
  id: ID,
  number: 7,
  name: 'Пакет № 7',
  origin: 'manual',
  uploadId: null,
  status: 'sent',
  statusLabel: 'Отправлен',
  eventsCount: 2,
  registeredCount: 0,
  kinds: { create: 2 },
  createdBy: { id: 'u1', fullName: 'Петров Пётр' },
  approvedBy: { id: 'u2', fullName: 'Сидорова Анна' },
  approvedAt: '2026-11-20T08:00:00.000Z',
  sentAt: '2026-11-21T08:00:00.000Z',
  registeredAt: null,
  rejectionReason: null,
  createdAt: '2026-11-19T08:00:00.000Z',
  updatedAt: '2026-11-21T08:00:00.000Z',
  canApprove: false,
  approveBlockedReason: null,
};

describe('pledge registry: a registry refusal of a sent package', () => {
  it('needs a reason, posts the rejection with it and reads the packages again', async () => {
    const api = stubApi([
      meAnswer('analyst'),
      {
        method: 'GET',
        path: '/api/v1/pledges/packages',
        schema: pledgePackagesResponseSchema,
        body: { items: [sentPackage], total: 1 },
      },
      {
        method: 'POST',
        path: `/api/v1/pledges/packages/${ID}/transition`,
        schema: pledgePackageDetailSchema,
        body: { ...sentPackage, status: 'rejected', statusLabel: 'Отказ реестра', history: [] },
      },
    ]);
    const { user } = renderDom({ element: <PackagesPage /> });
    const card = await screen.findByTestId('pledge-package');
    const listReads = () =>
      api.calls.filter((call) => call.url.startsWith('/api/v1/pledges/packages?')).length;
    await user.click(await within(card).findByRole('button', { name: 'Отказ реестра' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отказ в регистрации' });
    const submit = within(dialog).getByRole('button', { name: 'Отказ реестра' });
    // Without a reason the refusal cannot be recorded; spaces are not a reason.
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.type(within(dialog).getByLabelText('Причина отказа'), '   ');
    expect(submit.hasAttribute('disabled')).toBe(true);
    const readsBefore = listReads();
    await user.clear(within(dialog).getByLabelText('Причина отказа'));
    await user.type(within(dialog).getByLabelText('Причина отказа'), 'Неверный VIN');
    await user.click(submit);

    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
        {
          method: 'POST',
          url: `/api/v1/pledges/packages/${ID}/transition`,
          body: { action: 'reject', comment: 'Неверный VIN' },
        },
      ]),
    );
    expect(await screen.findByText('Статус пакета: «Отказ реестра»')).toBeTruthy();
    await waitFor(() => expect(listReads()).toBeGreaterThan(readsBefore));
  });
});
