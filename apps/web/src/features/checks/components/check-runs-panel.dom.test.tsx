// @vitest-environment happy-dom
import { checkRunSchema, checkRunsResponseSchema, errorResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDom } from '@/testing/render-dom';
import { type StubAnswer, stubApi } from '@/testing/render-route';
import { CheckRunsPanel } from './check-runs-panel';

const LIST = '/api/v1/monitoring/check-runs';

const run = (id: string, status: 'queued' | 'running' | 'completed') => ({
  id,
  trigger: 'manual' as const,
  status,
  itemsTotal: 10,
  itemsDone: status === 'completed' ? 10 : 0,
  batchesTotal: 1,
  batchesDone: status === 'completed' ? 1 : 0,
  eventsCreated: 0,
  error: null,
  createdBy: 'Иванова Анна Петровна',
  createdAt: '2026-11-20T06:00:00.000Z',
  startedAt: '2026-11-20T06:00:01.000Z',
  finishedAt: status === 'completed' ? '2026-11-20T06:01:00.000Z' : null,
  sources: [],
  failedSources: [],
});

const stub = (listed: ReturnType<typeof run>, start: StubAnswer) =>
  stubApi([
    { method: 'GET', path: LIST, schema: checkRunsResponseSchema, body: { items: [listed], total: 1 } },
    { method: 'GET', path: `${LIST}/${listed.id}`, schema: checkRunSchema, body: listed },
    start,
  ]);

const started: StubAnswer = {
  method: 'POST',
  path: LIST,
  schema: checkRunSchema,
  body: run('run-new', 'queued'),
  status: 202,
};

const listReads = (api: ReturnType<typeof stubApi>) =>
  api.calls.filter((call) => call.method === 'GET' && call.url.split('?')[0] === LIST).length;

describe('checks: starting a run', () => {
  it('posts the start, says so and reads the runs list again', async () => {
    const api = stub(run('run-old', 'completed'), started);
    const { user } = renderDom({ element: <CheckRunsPanel canStart /> });
    await waitFor(() => expect(listReads(api)).toBe(1));
    const button = await screen.findByRole('button', { name: 'Запустить проверку' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));

    await user.click(button);
    expect(await screen.findByText('Проверка запущена')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', url: LIST, body: {} },
    ]);
    // The start invalidates every check-runs query: the list on screen is read again.
    await waitFor(() => expect(listReads(api)).toBe(2));
  }, 120_000);

  it('shows the server’s Russian refusal and reads nothing again', async () => {
    const api = stub(run('run-old', 'completed'), {
      method: 'POST',
      path: LIST,
      schema: errorResponseSchema,
      body: {
        statusCode: 409,
        code: 'RUN_IN_PROGRESS',
        message: 'Проверка уже идёт: дождитесь её окончания',
      },
      status: 409,
    });
    const { user } = renderDom({ element: <CheckRunsPanel canStart /> });
    const button = await screen.findByRole('button', { name: 'Запустить проверку' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    await user.click(button);
    expect(await screen.findByText('Проверка уже идёт: дождитесь её окончания')).toBeTruthy();
    expect(screen.queryByText('Проверка запущена')).toBeNull();
    expect(listReads(api)).toBe(1);
  }, 120_000);

  it('cannot start a second run while one on the list is still going, nor without the right', async () => {
    stub(run('run-going', 'running'), started);
    const { unmount } = renderDom({ element: <CheckRunsPanel canStart /> });
    await screen.findByText('Выполняется');
    expect((screen.getByRole('button', { name: 'Запустить проверку' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    unmount();

    renderDom({ element: <CheckRunsPanel canStart={false} /> });
    await screen.findByText('Выполняется');
    expect(screen.queryByRole('button', { name: 'Запустить проверку' })).toBeNull();
  }, 120_000);
});
