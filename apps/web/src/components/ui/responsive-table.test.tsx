import { describe, expect, it } from 'vitest';
import { renderRoute, textsOf, visibleText } from '@/testing/render-route';
import { type ResponsiveColumn, ResponsiveTable } from './responsive-table';

type Change = { id: string; vin: string; before: string; after: string; source: string; note: string };

const ROWS: Change[] = [
  {
    id: 'a',
    vin: 'XTA21703080123456',
    before: 'нет залога',
    after: 'залог',
    source: 'Реестр залогов',
    note: 'скрыто',
  },
  {
    id: 'b',
    vin: 'WDB12345678901234',
    before: 'нет розыска',
    after: 'розыск',
    source: 'МВД',
    note: 'скрыто',
  },
];

const COLUMNS: ResponsiveColumn<Change>[] = [
  { id: 'vin', header: 'VIN', card: 'title', cell: (row) => row.vin },
  { id: 'source', header: 'Источник', card: 'primary', cell: (row) => row.source },
  {
    id: 'change',
    header: 'Было → стало',
    card: 'beforeAfter',
    cell: (row) => `${row.before} → ${row.after}`,
  },
  { id: 'note', header: 'Служебное', card: 'hidden', cell: (row) => row.note },
  { id: 'when', header: 'Когда', card: 'secondary', cell: () => '23.11.2026, 10:00 МСК' },
];

const render = (layout: 'table' | 'cards', rows: Change[] = ROWS) =>
  renderRoute({
    path: '/',
    url: '/',
    element: (
      <ResponsiveTable
        rows={rows}
        columns={COLUMNS}
        getRowId={(row) => row.id}
        ariaLabel="Изменения"
        rowOptions={(row) => ({ testId: 'change-row', data: { vin: row.vin } })}
        showEmpty
        empty="Изменений нет"
        layout={layout}
      />
    ),
  });

describe('ResponsiveTable', () => {
  it('renders a table with every column on desktops', async () => {
    const html = await render('table');
    expect(textsOf(html, 'th')).toEqual(['VIN', 'Источник', 'Было → стало', 'Служебное', 'Когда']);
    expect(html).toContain('data-testid="change-row"');
    expect(html).not.toContain('<ul');
  });

  it('renders one card per row on phones: the title first, then before → after, fields and caption', async () => {
    const html = await render('cards');
    expect(html).not.toContain('<table');
    const cards = html.split('data-testid="change-row"').slice(1);
    expect(cards).toHaveLength(2);
    expect(html).toContain('data-vin="WDB12345678901234"');
    const first = visibleText((cards[0] ?? '').replace(/^[^>]*>/, ''));
    // Nothing of the second card leaks into the first one's text.
    // The card leads with its object; what changed follows it.
    expect(first.startsWith('XTA21703080123456 нет залога → залог')).toBe(true);
    expect(first).toContain('Источник Реестр залогов');
    expect(first).toContain('23.11.2026, 10:00 МСК');
    expect(first.indexOf('Источник')).toBeLessThan(first.indexOf('23.11.2026'));
    // A hidden column stays off the card, and a titled or before → after one has no label.
    expect(html).not.toContain('скрыто');
    expect(textsOf(html, 'dt')).toEqual(['Источник', 'Источник']);
  });

  it('says so when there is nothing, in both forms', async () => {
    expect(visibleText(await render('cards', []))).toContain('Изменений нет');
    expect(visibleText(await render('table', []))).toContain('Изменений нет');
  });
});
