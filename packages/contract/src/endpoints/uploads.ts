import { defineEndpoint } from '../endpoint.ts';
import {
  createUploadQuerySchema,
  uploadDetailSchema,
  uploadErrorRowsQuerySchema,
  uploadErrorRowsResponseSchema,
  uploadFileQuerySchema,
  uploadSchema,
  uploadsQuerySchema,
  uploadsResponseSchema,
  uploadTemplateQuerySchema,
} from '../uploads.ts';
import { fileResponse, idParams, XLSX } from './params.ts';

const uploadParams = idParams('Неверный идентификатор загрузки');
const uploadFile = fileResponse('Файл CSV (UTF-8 с BOM, разделитель «;») или XLSX');

/** `/api/v1/monitoring/uploads`: file uploads of the portfolio, their preview, confirmation and history. */
export const uploadEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/uploads',
    tags: ['uploads'],
    summary:
      'Загрузить файл CSV или XLSX (multipart, поле file). Ответ 202: загрузка принята, проверка идёт в фоне',
    bodyType: 'multipart',
    query: createUploadQuerySchema,
    response: uploadSchema,
    status: 202,
    errors: [400, 401, 403, 413, 422],
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/uploads',
    tags: ['uploads'],
    summary: 'История загрузок: новые сверху, со статусом, прогрессом и счётчиками',
    query: uploadsQuerySchema,
    response: uploadsResponseSchema,
    errors: [401, 422],
  }),
  template: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/uploads/template',
    tags: ['uploads'],
    summary: 'Шаблон файла загрузки (CSV или XLSX) с русскими заголовками и примерами строк',
    query: uploadTemplateQuerySchema,
    produces: ['text/csv', XLSX],
    responseType: 'blob',
    response: uploadFile,
    errors: [401, 422],
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/uploads/:id',
    tags: ['uploads'],
    summary: 'Загрузка: статус, прогресс, счётчики, распознанные столбцы, предпросмотр и первые ошибки',
    params: uploadParams,
    response: uploadDetailSchema,
    errors: [401, 404, 422],
  }),
  errorRows: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/uploads/:id/error-rows',
    tags: ['uploads'],
    summary: 'Отклонённые строки загрузки постранично',
    params: uploadParams,
    query: uploadErrorRowsQuerySchema,
    response: uploadErrorRowsResponseSchema,
    errors: [401, 404, 422],
  }),
  errorsFile: defineEndpoint({
    method: 'GET',
    path: '/api/v1/monitoring/uploads/:id/errors',
    tags: ['uploads'],
    summary: 'Файл отклонённых строк: «Строка», столбцы шаблона и «Ошибка» — исправить и загрузить снова',
    params: uploadParams,
    query: uploadFileQuerySchema,
    produces: ['text/csv', XLSX],
    responseType: 'blob',
    response: uploadFile,
    errors: [401, 404, 422],
  }),
  confirm: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/uploads/:id/confirm',
    tags: ['uploads'],
    summary: 'Подтвердить проверенную загрузку: принятые строки добавляются в портфель',
    params: uploadParams,
    response: uploadSchema,
    errors: [401, 403, 404, 409, 422],
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/uploads/:id/cancel',
    tags: ['uploads'],
    summary: 'Отменить загрузку до начала импорта (в очереди, при проверке или после неё)',
    params: uploadParams,
    response: uploadSchema,
    errors: [401, 403, 404, 409, 422],
  }),
};
