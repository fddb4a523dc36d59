import { texts as shared } from '@/config/texts';

/**
 * The audit-log feature's wording (`texts.auditLog`, a settings tab); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  auditLog: {
    heading: 'Журнал действий',
    hint: 'Кто, что и когда изменил в организации. Время — по Москве.',
    any: 'Все',
    actor: 'Сотрудник',
    action: 'Действие',
    entity: 'Объект',
    from: 'С',
    to: 'По',
    when: 'Когда',
    changes: 'Что изменилось',
    system: 'Система',
    empty: 'Записей нет.',
    export: { xlsx: 'Excel', csv: 'CSV' },
  },
};
