import {
  EVENT_TYPES,
  METHOD_CONFIG_KEYS,
  type NotificationRule,
  type NotificationRuleForm,
  normaliseRuleTarget,
  SECRET_CONFIG_KEYS,
  SEVERITIES,
  SOURCE_TYPES,
  type UpdateNotificationRuleBody,
} from '@pledgewatch/contract';
import { texts } from '@/features/notifications/texts';

const t = texts.notifications.rules;

/** Every field the form can show, so switching the method never loses what was typed. */
export type RuleFormValues = NotificationRuleForm & {
  recipients: string[];
  config: Record<string, string>;
  /** Empty strings in the inputs; the schema turns them into null on submit. */
  itemFilter: { label: string | null; contractNumber: string | null };
};

export const emptyRuleForm = (): RuleFormValues => ({
  name: '',
  enabled: true,
  eventTypes: [],
  minSeverity: 'low',
  itemFilter: { label: '', contractNumber: '' },
  method: 'email',
  recipients: [''],
  config: { url: '', secret: '', botToken: '', chatId: '' },
  mode: 'instant',
  digestHour: 9,
  subject: 'events',
  sourceType: null,
  failureThreshold: 3,
  staleHours: 24,
  notifyRecovery: true,
});

/** A stored rule as the edit form starts: secrets empty (the server keeps them unless replaced). */
export function ruleToForm(rule: NotificationRule): RuleFormValues {
  const empty = emptyRuleForm();
  const config = { ...empty.config };
  for (const [key, value] of Object.entries(rule.config)) {
    config[key] = SECRET_CONFIG_KEYS.includes(key) ? '' : value;
  }
  return {
    name: rule.name,
    enabled: rule.enabled,
    eventTypes: [...rule.eventTypes],
    minSeverity: rule.minSeverity,
    itemFilter: { label: rule.itemFilter.label ?? '', contractNumber: rule.itemFilter.contractNumber ?? '' },
    method: rule.method,
    recipients: rule.recipients.length > 0 ? [...rule.recipients] : [''],
    config,
    mode: rule.mode,
    digestHour: rule.digestHour,
    subject: rule.subject,
    sourceType: rule.sourceType,
    failureThreshold: rule.failureThreshold,
    staleHours: rule.staleHours,
    notifyRecovery: rule.notifyRecovery,
  };
}

/** What the API gets: only the chosen method's recipients or fields, trimmed. */
export function formToBody(values: RuleFormValues): Omit<UpdateNotificationRuleBody, 'id'> {
  const target = normaliseRuleTarget({
    method: values.method,
    recipients: values.recipients.filter((address) => address.trim() !== ''),
    config: values.config,
  });
  return {
    name: values.name.trim(),
    enabled: values.enabled,
    eventTypes: values.eventTypes,
    minSeverity: values.minSeverity,
    itemFilter: {
      label: values.itemFilter.label?.trim() || null,
      contractNumber: values.itemFilter.contractNumber?.trim() || null,
    },
    method: values.method,
    recipients: target.recipients,
    config: target.config,
    // A source alert goes out at once: there is no digest of alerts.
    mode: values.subject === 'events' ? values.mode : 'instant',
    digestHour: values.digestHour,
    subject: values.subject,
    sourceType: values.subject === 'events' ? null : values.sourceType,
    failureThreshold: values.failureThreshold,
    staleHours: values.staleHours,
    notifyRecovery: values.notifyRecovery,
  };
}

/** «risk@bank.ru, boss@bank.ru», the webhook address or the Telegram chat. */
export function describeTarget(rule: NotificationRule): string {
  if (rule.method === 'email') {
    return rule.recipients.join(', ');
  }
  const keys = METHOD_CONFIG_KEYS[rule.method].filter((key) => !SECRET_CONFIG_KEYS.includes(key));
  return keys.map((key) => rule.config[key] ?? '').join(' ');
}

export function describeEvents(rule: NotificationRule): string {
  if (rule.subject !== 'events') {
    const source = rule.sourceType ? SOURCE_TYPES[rule.sourceType].name : null;
    return rule.subject === 'source_failure'
      ? t.sourceFailure(source, rule.failureThreshold)
      : t.sourceStale(source, rule.staleHours);
  }
  if (rule.eventTypes.length === 0) {
    return t.allEvents;
  }
  if (rule.eventTypes.length <= 2) {
    return rule.eventTypes.map((type) => EVENT_TYPES[type].label).join(', ');
  }
  return t.eventsCount(rule.eventTypes.length);
}

export function describeSeverity(rule: NotificationRule): string {
  return rule.minSeverity === 'low' ? t.anySeverity : t.severityFrom(SEVERITIES[rule.minSeverity].label);
}

export function describeItems(rule: NotificationRule): string {
  const parts = [
    rule.itemFilter.label ? t.labelContains(rule.itemFilter.label) : null,
    rule.itemFilter.contractNumber ? t.contractContains(rule.itemFilter.contractNumber) : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : t.allItems;
}
