import { texts as shared } from '@/config/texts';

/**
 * The uploads-history feature's wording (`texts.uploadsHistory`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  uploadsHistory: {
    title: 'История загрузок',
    upload: 'Загрузить файл',
    kind: 'Вид',
    allKinds: 'Все виды',
    status: 'Статус',
    allStatuses: 'Все статусы',
    timeZone: 'Время московское',
    file: 'Файл и время',
    author: 'Автор',
    rows: 'Строк',
    accepted: 'Принято',
    duplicates: 'Повторы',
    rejected: 'Отклонено',
    errorFile: 'Файл ошибок',
    errorFileLink: (format: string, name: string) => `Файл ошибок ${format}: ${name}`,
    progress: (name: string) => `Ход обработки ${name}`,
    empty: 'Загрузок пока не было. Загрузите файл со списком VIN или документов.',
    emptyFiltered: 'Нет загрузок с такими условиями.',
  },
};
