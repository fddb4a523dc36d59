import { texts as shared } from '@/config/texts';

/**
 * The report feature's wording (`texts.report`); the shared words (app, common, errors, nav, pages) come from config/texts.ts.
 */
export const texts = {
  ...shared,
  report: {
    title: 'Отчёт',
    kind: 'Вид отчёта',
    kindHints: {
      events: 'Все события за период с фильтрами: что изменилось, по какому объекту, было и стало.',
      portfolio: 'Портфель сейчас: каждый объект с числом текущих находок и источниками, где они есть.',
      one_time_checks: 'Разовые проверки за период: кто, когда, что проверял и что нашлось.',
      uploads: 'Загрузки файлов: строки, принятые и отклонённые. Без периода — все загрузки.',
    },
    period: 'Период (МСК)',
    presets: { '7': '7 дней', '30': '30 дней', '90': '90 дней', year: 'Этот год' },
    allTime: 'За всё время',
    filters: 'Условия',
    eventTypes: 'Типы событий',
    allTypes: 'Все типы',
    severities: 'Важность',
    allSeverities: 'Любая',
    sources: 'Источники',
    allSources: 'Все источники',
    read: 'Прочтение',
    readAll: 'Все',
    readUnread: 'Непрочитанные',
    readRead: 'Прочитанные',
    itemKind: 'Объекты',
    itemKinds: { all: 'Все', vin: 'VIN', document: 'Документы' },
    statuses: 'Статус объектов',
    defaultStatuses: 'На мониторинге и на паузе',
    label: 'Метка объекта содержит',
    format: 'Формат',
    formats: { xlsx: 'Excel (XLSX)', csv: 'CSV', pdf: 'PDF' },
    encoding: 'Кодировка CSV',
    encodings: { 'utf-8': 'UTF-8 (с BOM)', 'windows-1251': 'Windows-1251' },
    pdfLimit: (limit: string) => `PDF — для печати: не больше ${limit} строк. Полный отчёт — в XLSX или CSV.`,
    download: 'Скачать отчёт',
    cancel: 'Остановить',
    directLink: 'Прямая ссылка на файл',
    directLinkHint: 'Для очень больших отчётов: браузер сохранит файл сам, без индикатора на странице.',
    preparing: 'Готовим отчёт…',
    progress: (received: string, rows: string) => `Получено ${received} · строк в отчёте: ${rows}`,
    progressBytes: (received: string) => `Получено ${received}`,
    done: (fileName: string, rows: string) => `Файл «${fileName}» скачан, строк: ${rows}`,
    cancelled: 'Загрузка отчёта остановлена',
    streamingHint:
      'Отчёт формируется и передаётся по частям, пока читается из базы: большой портфель скачивается без ожидания сборки файла.',
  },
};
