// @vitest-environment happy-dom
import { auditFacetsResponseSchema, auditResponseSchema } from '@pledgewatch/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderDom } from '@/testing/render-dom';
import { stubApi } from '@/testing/render-route';
import { AuditLogTable } from './audit-log-table';

const ACTOR = {
  id: '00000000-0000-4000-8000-0000000000d1',
  fullName: 'Петров Пётр',
  email: 'petrov@bank.example',
};

const stub = () =>
  stubApi([
    {
      method: 'GET',
      path: '/api/v1/audit/facets',
      schema: auditFacetsResponseSchema,
      body: { actions: ['api_key.created', 'api_key.revoked'], entities: ['api_key'], actors: [ACTOR] },
    },
    {
      method: 'GET',
      path: '/api/v1/audit',
      schema: auditResponseSchema,
      body: {
        items: [
          {
            id: 'e1',
            createdAt: '2026-11-26T09:00:00.000Z',
            actor: ACTOR,
            action: 'api_key.created',
            entity: 'api_key',
            entityId: null,
            details: {},
          },
        ],
        total: 1,
      },
    },
  ]);

/** The query of each list read, as key=value pairs without the page. */
const listQueries = (calls: { method: string; url: string }[]) =>
  calls
    .filter((call) => call.method === 'GET' && call.url.startsWith('/api/v1/audit?'))
    .map((call) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams));

const exportHref = (name: string) =>
  new URL(screen.getByRole('link', { name }).getAttribute('href') ?? '', 'http://localhost');

describe('audit log: filters', () => {
  it('sends the chosen action and actor in the list request and in both export links', async () => {
    const api = stub();
    const { user } = renderDom({ element: <AuditLogTable /> });
    await screen.findByText('petrov@bank.example');
    expect(listQueries(api.calls)).toEqual([{ page: '1', pageSize: '25' }]);
    expect(Object.fromEntries(exportHref('Excel').searchParams)).toEqual({ format: 'xlsx' });

    await user.click(screen.getByRole('combobox', { name: 'Действие' }));
    await user.click(await screen.findByRole('option', { name: 'Отзыв ключа API' }));
    await waitFor(() =>
      expect(listQueries(api.calls).at(-1)).toEqual({ page: '1', pageSize: '25', action: 'api_key.revoked' }),
    );

    await user.click(screen.getByRole('combobox', { name: 'Сотрудник' }));
    await user.click(await screen.findByRole('option', { name: 'Петров Пётр' }));
    await waitFor(() =>
      expect(listQueries(api.calls).at(-1)).toEqual({
        page: '1',
        pageSize: '25',
        action: 'api_key.revoked',
        actorId: ACTOR.id,
      }),
    );

    const excel = exportHref('Excel');
    expect(excel.pathname).toBe('/api/v1/audit/export');
    expect(Object.fromEntries(excel.searchParams)).toEqual({
      format: 'xlsx',
      action: 'api_key.revoked',
      actorId: ACTOR.id,
    });
    expect(Object.fromEntries(exportHref('CSV').searchParams)).toEqual({
      format: 'csv',
      action: 'api_key.revoked',
      actorId: ACTOR.id,
    });
  });

  it('choosing «Все» again drops the filter from the request and the links', async () => {
    const api = stub();
    const { user } = renderDom({ element: <AuditLogTable /> });
    await screen.findByText('petrov@bank.example');
    await user.click(screen.getByRole('combobox', { name: 'Объект' }));
    await user.click(await screen.findByRole('option', { name: /ключ/i }));
    await waitFor(() => expect(listQueries(api.calls).at(-1)).toMatchObject({ entity: 'api_key' }));
    expect(exportHref('CSV').searchParams.get('entity')).toBe('api_key');

    await user.click(screen.getByRole('combobox', { name: 'Объект' }));
    await user.click(await screen.findByRole('option', { name: 'Все' }));
    await waitFor(() => expect(exportHref('CSV').searchParams.has('entity')).toBe(false));
  });
});
