import type { OutboxMail } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { renderRoute, visibleText } from '@/testing/render-route';
import { OutboxBody, outboxColumns } from './outbox-columns';

const mail = (id: string, subject: string): OutboxMail => ({
  id,
  to: `${id}@bank.example`,
  subject,
  text: `Ссылка для ${id}: https://pledgewatch.example/reset/${id}`,
  html: '',
  status: 'stored',
  attempts: 0,
  lastError: null,
  createdAt: '2026-11-23T10:00:00.000Z',
  sentAt: null,
});

const render = (layout: 'table' | 'cards') =>
  renderRoute({
    path: '/',
    url: '/',
    element: (
      <ResponsiveTable
        rows={[mail('a', 'Сброс пароля'), mail('b', 'Приглашение')]}
        columns={outboxColumns({ isOpen: (row) => row.id === 'a', onToggle: () => undefined })}
        getRowId={(row) => row.id}
        ariaLabel="Исходящие"
        rowOptions={() => ({ testId: 'outbox-row' })}
        detail={(row) => <OutboxBody mail={row} />}
        detailOpen={(row) => row.id === 'a'}
        layout={layout}
      />
    ),
  });

describe('the outbox on a phone', () => {
  it('is a card per mail, headed by the subject; an unfolded one shows its body, the other does not', async () => {
    const html = await render('cards');
    expect(html).not.toContain('<table');
    const cards = html.split('data-testid="outbox-row"').slice(1);
    expect(cards).toHaveLength(2);
    const [first = '', second = ''] = cards.map((card) => visibleText(card.replace(/^[^>]*>/, '')));
    expect(first.startsWith('Сброс пароля')).toBe(true);
    expect(first).toContain('a@bank.example');
    expect(first).toContain('https://pledgewatch.example/reset/a');
    expect(second).not.toContain('https://pledgewatch.example/reset/b');
    expect(html).toContain('aria-expanded="true"');
  });

  it('stays a table on desktops, the body under its row', async () => {
    const html = await render('table');
    expect(html).toContain('<table');
    expect(html).toContain('data-testid="outbox-body"');
  });
});
