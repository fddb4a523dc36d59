// @vitest-environment happy-dom
import { type OutboxMail, outboxResponseSchema, platformEndpoints } from '@pledgewatch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderDom } from '@/testing/render-dom';
import { OutboxTable } from './outbox-table';

const mail = (n: number, overrides: Partial<OutboxMail> = {}): OutboxMail => ({
  id: `mail-${n}`,
  to: `user${n}@bank.example`,
  subject: `Письмо ${n}`,
  text: `Здравствуйте! Это письмо ${n}.`,
  html: '',
  status: 'stored',
  attempts: 0,
  lastError: null,
  createdAt: '2026-03-01T09:00:00.000Z',
  sentAt: null,
  ...overrides,
});

/** 30 mails, newest first; the server pages and filters them by the query it gets. */
const MAILS = Array.from({ length: 30 }, (_, i) => mail(i + 1));
MAILS[0] = mail(1, {
  subject: 'Сброс пароля',
  text: 'Чтобы задать новый пароль, откройте ссылку: https://pledgewatch.example/auth/reset?token=•••',
});
MAILS[1] = mail(2, {
  subject: 'Приглашение',
  status: 'failed',
  attempts: 3,
  lastError: 'SMTP 550: mailbox unavailable',
});

type Answer = { status: number; body: unknown };

/** Stubs fetch with the outbox endpoint; `answer` sees each request's query. Records the queries. */
function stubOutbox(answer: (query: Record<string, string>) => Answer) {
  const queries: Record<string, string>[] = [];
  vi.stubGlobal('fetch', async (input: string | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== platformEndpoints.outbox.path) {
      return new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'нет заглушки' }), { status: 404 });
    }
    const query = Object.fromEntries(url.searchParams);
    queries.push(query);
    const { status, body } = answer(query);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  return queries;
}

/** The server's paging and addressee filter over MAILS. */
const serverAnswer = (query: Record<string, string>): Answer => {
  const page = Number(query.page);
  const pageSize = Number(query.pageSize);
  const found = MAILS.filter((item) => !query.to || item.to.includes(query.to));
  return {
    status: 200,
    body: outboxResponseSchema.parse({
      items: found.slice((page - 1) * pageSize, page * pageSize),
      total: found.length,
    }),
  };
};

/** The outbox over MAILS once its first page is shown, with the queries sent. */
async function renderFirstPage() {
  const queries = stubOutbox(serverAnswer);
  const rendered = renderDom({ element: <OutboxTable /> });
  await screen.findByText('Сброс пароля');
  return { queries, ...rendered };
}

const rowSubjects = () =>
  screen.getAllByTestId('outbox-row').map((row) => within(row).getAllByRole('cell')[2]!.textContent);

describe('outbox', () => {
  it('lists the first page and unfolds a mail to show its body, and folds it again', async () => {
    const { queries, user } = await renderFirstPage();
    expect(queries).toEqual([{ page: '1', pageSize: '25' }]);
    expect(rowSubjects()).toHaveLength(25);
    expect(rowSubjects().slice(0, 3)).toEqual(['Сброс пароля', 'Приглашение', 'Письмо 3']);
    expect(screen.getByText('1–25 из 30')).toBeTruthy();
    expect(screen.queryByTestId('outbox-body')).toBeNull();

    const open = screen.getByRole('button', { name: 'Развернуть: Сброс пароля' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    await user.click(open);
    const body = await screen.findByTestId('outbox-body');
    expect(body.textContent).toBe(MAILS[0]!.text);
    expect(screen.getAllByTestId('outbox-body')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Свернуть: Сброс пароля' }));
    await waitFor(() => expect(screen.queryByTestId('outbox-body')).toBeNull());
  }, 120_000);

  it('shows a failed mail’s status and its last sending error when unfolded', async () => {
    stubOutbox(serverAnswer);
    const { user } = renderDom({ element: <OutboxTable /> });
    const row = (await screen.findByText('Приглашение')).closest('tr')!;
    expect(within(row).getByText('Ошибка')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Развернуть: Приглашение' }));
    expect(await screen.findByText('Последняя ошибка: SMTP 550: mailbox unavailable')).toBeTruthy();
  }, 120_000);

  it('asks the server for the next page and shows its mails', async () => {
    const { queries, user } = await renderFirstPage();

    await user.click(screen.getByRole('button', { name: 'Перейти на следующую страницу' }));
    await waitFor(() =>
      expect(rowSubjects()).toEqual(['Письмо 26', 'Письмо 27', 'Письмо 28', 'Письмо 29', 'Письмо 30']),
    );
    expect(queries.at(-1)).toEqual({ page: '2', pageSize: '25' });
    expect(screen.getByText('26–30 из 30')).toBeTruthy();
    expect(screen.queryByText('Сброс пароля')).toBeNull();
  }, 120_000);

  it('filters by addressee from the first page, and says so in Russian when nothing matches', async () => {
    const { queries, user } = await renderFirstPage();
    await user.click(screen.getByRole('button', { name: 'Перейти на следующую страницу' }));
    await screen.findByText('Письмо 30');

    await user.type(screen.getByRole('searchbox', { name: 'Адресат' }), ' user2@ ');
    // The typed text is trimmed and sent once the typing pauses, from page 1.
    await waitFor(() => expect(queries.at(-1)).toEqual({ page: '1', pageSize: '25', to: 'user2@' }));
    await waitFor(() => expect(rowSubjects()).toEqual(['Приглашение']));

    await user.clear(screen.getByRole('searchbox', { name: 'Адресат' }));
    await user.type(screen.getByRole('searchbox', { name: 'Адресат' }), 'nobody@');
    expect(await screen.findByText('Писем нет.')).toBeTruthy();
    expect(queries.at(-1)).toEqual({ page: '1', pageSize: '25', to: 'nobody@' });
  }, 120_000);

  it('shows the server’s refusal in Russian instead of rows', async () => {
    stubOutbox(() => ({
      status: 403,
      body: { statusCode: 403, code: 'FORBIDDEN', message: 'Недостаточно прав для этого действия' },
    }));
    renderDom({ element: <OutboxTable /> });
    expect((await screen.findByRole('alert')).textContent).toBe('Недостаточно прав для этого действия');
    expect(screen.queryAllByTestId('outbox-row')).toEqual([]);
    // No answer, no «no mails» either: the list is unknown, not empty.
    expect(screen.queryByText('Писем нет.')).toBeNull();
  }, 120_000);
});
