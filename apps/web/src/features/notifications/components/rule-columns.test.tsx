import type { NotificationRule } from '@pledgewatch/contract';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ruleColumns } from './rule-columns';

const noop = () => {};

describe('the «Кому» column of notification rules', () => {
  it('keeps every e-mail address whole: one wrapping unit per address', () => {
    const rule = {
      method: 'email',
      recipients: ['risk-department@bank.example', 'boss@bank.example'],
      config: {},
    } as unknown as NotificationRule;
    const column = ruleColumns({
      canManage: true,
      isUpdating: () => false,
      onToggle: noop,
      isTesting: () => false,
      onTest: noop,
      onEdit: noop,
      onDelete: noop,
    }).find((entry) => entry.id === 'target')!;
    const html = renderToString(<div>{column.cell(rule)}</div>);
    const units = [...html.matchAll(/<span[^>]*data-address="true"[^>]*>(.*?)<\/span>/g)].map((match) =>
      match[1]!.replaceAll('<!-- -->', ''),
    );
    expect(units).toEqual(['risk-department@bank.example,\u00a0', 'boss@bank.example']);
    // Nothing in the column lets the browser break a word anywhere.
    expect(JSON.stringify(column.cellSx ?? {})).not.toContain('anywhere');
  });
});
