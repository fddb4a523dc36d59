import { type NotificationRule, notificationRuleFormSchema } from '@pledgewatch/contract';
import { describe, expect, it } from 'vitest';
import {
  describeEvents,
  describeItems,
  describeTarget,
  emptyRuleForm,
  formToBody,
  ruleToForm,
} from './rule-form';

const rule: NotificationRule = {
  id: 'r1',
  name: 'Вебхук',
  enabled: true,
  eventTypes: ['wanted_added', 'restriction_added', 'accident_recorded'],
  minSeverity: 'high',
  itemFilter: { label: 'Lada', contractNumber: null },
  method: 'webhook',
  recipients: [],
  config: { url: 'https://bank.test/hook', secret: '••••••••cdef' },
  mode: 'daily',
  digestHour: 8,
  lastDigestOn: null,
  subject: 'events',
  sourceType: null,
  failureThreshold: 3,
  staleHours: 24,
  notifyRecovery: true,
  createdAt: '2026-03-12T10:00:00.000Z',
  updatedAt: '2026-03-12T10:00:00.000Z',
};

describe('notification rule form', () => {
  it('starts an edit with secrets empty and keeps what the other methods need blank', () => {
    const form = ruleToForm(rule);
    expect(form.config).toEqual({ url: 'https://bank.test/hook', secret: '', botToken: '', chatId: '' });
    expect(form.itemFilter).toEqual({ label: 'Lada', contractNumber: '' });
    expect(form.recipients).toEqual(['']);
  });

  it('validates live with the contract: an edit may leave the secret empty, a new rule may not', () => {
    const form = ruleToForm(rule);
    expect(notificationRuleFormSchema({ secretsOptional: true }).safeParse(form).success).toBe(true);
    const created = notificationRuleFormSchema().safeParse(form);
    expect(created.success).toBe(false);
    expect(created.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['config.secret', 'Обязательное поле'],
    ]);
    const bad = notificationRuleFormSchema().safeParse({
      ...emptyRuleForm(),
      name: 'Почта',
      recipients: ['ok@bank.ru', 'плохой'],
    });
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['recipients.1']);
  });

  it('accepts the values the schema outputs (empty filters become null)', () => {
    const parsed = notificationRuleFormSchema().parse({
      ...emptyRuleForm(),
      name: 'x',
      recipients: ['a@b.ru'],
    });
    expect(formToBody(parsed as Parameters<typeof formToBody>[0]).itemFilter).toEqual({
      label: null,
      contractNumber: null,
    });
  });

  it('sends only the chosen method’s target, trimmed', () => {
    const body = formToBody({
      ...emptyRuleForm(),
      name: ' Почта ',
      recipients: [' Risk@Bank.ru ', '', 'risk@bank.ru'],
      config: { url: 'https://x.test', secret: 'typed before switching', botToken: '', chatId: '' },
    });
    expect(body).toMatchObject({
      name: 'Почта',
      method: 'email',
      recipients: ['risk@bank.ru'],
      config: {},
      itemFilter: { label: null, contractNumber: null },
    });
  });

  it('describes a rule in Russian for the list', () => {
    expect(describeTarget(rule)).toBe('https://bank.test/hook');
    expect(describeEvents(rule)).toBe('Типов: 3');
    expect(describeEvents({ ...rule, eventTypes: [] })).toBe('Все типы');
    expect(describeItems(rule)).toBe('метка содержит «Lada»');
    expect(
      describeTarget({ ...rule, method: 'telegram', config: { botToken: '••••', chatId: '-100' } }),
    ).toBe('-100');
  });

  it('sends a source rule as an instant alert about its source, and describes it in the list', () => {
    const body = formToBody({
      ...emptyRuleForm(),
      name: 'Сбои',
      recipients: ['ops@bank.ru'],
      mode: 'daily',
      subject: 'source_failure',
      sourceType: 'wanted',
      failureThreshold: 5,
    });
    expect(body).toMatchObject({
      subject: 'source_failure',
      sourceType: 'wanted',
      failureThreshold: 5,
      mode: 'instant',
    });
    expect(
      describeEvents({ ...rule, subject: 'source_failure', sourceType: 'wanted', failureThreshold: 5 }),
    ).toBe('Сбои источника «Розыск»: ошибок подряд — 5');
    expect(describeEvents({ ...rule, subject: 'source_stale', sourceType: null, staleHours: 48 })).toBe(
      'Данные любого источника не обновлялись 48 ч',
    );
    const invalid = notificationRuleFormSchema().safeParse({
      ...emptyRuleForm(),
      name: 'x',
      recipients: ['a@b.ru'],
      subject: 'source_stale',
      staleHours: 0,
    });
    expect(invalid.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['staleHours', 'Срок — целое число часов от 1 до 8760'],
    ]);
  });
});
