// @vitest-environment happy-dom
import { checkScheduleSchema } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { ScheduleCard } from './schedule-card';

const PATH = '/api/v1/monitoring/check-schedule';
const schedule = {
  enabled: true,
  time: '06:00',
  lastTriggeredAt: null,
  nextRunAt: '2026-11-27T03:00:00.000Z',
};

const stub = () =>
  stubApi([
    { method: 'GET', path: PATH, schema: checkScheduleSchema, body: schedule },
    { method: 'PUT', path: PATH, schema: checkScheduleSchema, body: { ...schedule, time: '07:30' } },
  ]);

describe('checks: the daily schedule form', () => {
  it('shows «Время в формате ЧЧ:ММ» for a time that is not one and sends nothing', async () => {
    const api = stub();
    const { user } = renderDom({ element: <ScheduleCard canEdit /> });
    const section = await screen.findByRole('region', { name: 'Расписание' });
    const time = await within(section).findByLabelText('Время (МСК)');
    await user.clear(time);
    await user.type(time, '25:00');
    await user.click(within(section).getByRole('button', { name: 'Сохранить' }));
    expect(await within(section).findByText('Время в формате ЧЧ:ММ')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('puts the new time and keeps the answer as the cached schedule', async () => {
    const api = stub();
    const { user, queryClient } = renderDom({ element: <ScheduleCard canEdit /> });
    const section = await screen.findByRole('region', { name: 'Расписание' });
    const time = await within(section).findByLabelText('Время (МСК)');
    await user.clear(time);
    await user.type(time, '07:30');
    await user.click(within(section).getByRole('button', { name: 'Сохранить' }));

    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([
        { method: 'PUT', url: PATH, body: { enabled: true, time: '07:30' } },
      ]),
    );
    expect(await screen.findByText('Расписание сохранено')).toBeTruthy();
    // The saved schedule replaces the cached one directly (no second read of the same data).
    await waitFor(() =>
      expect(queryClient.getQueryData(queryKeys.checks.schedule)).toMatchObject({ time: '07:30' }),
    );
    expect(api.calls.filter((call) => call.method === 'GET')).toHaveLength(1);
  });
});
