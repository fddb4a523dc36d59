import { SEARCH_MIN_LENGTH } from '@pledgewatch/contract';
import { texts as shared } from '@/config/texts';

/** The header search's wording (`texts.search`); the shared words come from config/texts.ts. */
export const texts = {
  ...shared,
  search: {
    open: 'Поиск',
    shortcut: '/',
    placeholder: 'VIN, номер документа, договора, регистрации, метка…',
    label: 'Поиск по объектам, событиям, реестру, пакетам и проверкам',
    dialogTitle: 'Поиск',
    close: 'Закрыть поиск',
    tooShort: `Введите хотя бы ${SEARCH_MIN_LENGTH} буквы или цифры`,
    searching: 'Ищем…',
    nothing: (query: string) => `По запросу «${query}» ничего не найдено`,
    count: (total: number, more: boolean) => (more ? `${total}+` : String(total)),
    showAll: 'Показать все',
    hint: '↑↓ — выбрать, Enter — открыть, Esc — закрыть',
  },
};
