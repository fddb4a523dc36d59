import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import {
  createPledgeEventResponseSchema,
  createPledgePackageBodySchema,
  packageEventsBodySchema,
  packageExportQuerySchema,
  packageTransitionBodySchema,
  pledgeEventDetailSchema,
  pledgeEventInputSchema,
  pledgeEventsQuerySchema,
  pledgeEventsResponseSchema,
  pledgePackageDetailSchema,
  pledgePackagesQuerySchema,
  pledgePackagesResponseSchema,
  registrationNumbersBodySchema,
  registrationNumbersResponseSchema,
} from '../pledges.ts';
import { uploadFileQuerySchema, uploadSchema } from '../uploads.ts';
import { fileResponse, idParams, XLSX } from './params.ts';

export const uploadEventsQuerySchema = z.object({
  autoConfirm: z
    .enum(['true', 'false'], { error: 'autoConfirm: true или false' })
    .default('false')
    .transform((value) => value === 'true')
    .describe('true — внести события сразу после проверки, без подтверждения'),
});

const pledgeParams = idParams('Неверный идентификатор');
const file = fileResponse('Файл');

/**
 * The pledge registry: `POST /monitoring/regular-check/upload-events` (the seed's call: a file of
 * pledge events becomes an upload of kind pledge_events) and `/pledges/...` (hand entry, the events
 * registry, packages of notifications, their statuses, registration numbers and export).
 */
export const pledgeEndpoints = {
  uploadEvents: defineEndpoint({
    method: 'POST',
    path: '/api/v1/monitoring/regular-check/upload-events',
    tags: ['pledges'],
    summary:
      'Загрузить файл событий залога (CSV/XLSX, multipart, поле file). Ответ 202: загрузка вида pledge_events, проверка идёт в фоне; далее — как у загрузок портфеля (/monitoring/uploads/{id}, confirm, cancel, errors)',
    bodyType: 'multipart',
    query: uploadEventsQuerySchema,
    response: uploadSchema,
    status: 202,
    errors: [400, 401, 403, 413, 422],
  }),
  uploadTemplate: defineEndpoint({
    method: 'GET',
    path: '/api/v1/pledges/upload-template',
    tags: ['pledges'],
    summary: 'Шаблон файла событий залога (CSV или XLSX): строка на каждое ТС, поля уведомления повторяются',
    query: uploadFileQuerySchema,
    produces: ['text/csv', XLSX],
    responseType: 'blob',
    response: file,
    errors: [401, 422],
  }),
  createEvent: defineEndpoint({
    method: 'POST',
    path: '/api/v1/pledges/events',
    tags: ['pledges'],
    summary:
      'Внести одно уведомление о залоге вручную (возникновение, изменение, исключение). Исключение — только администратор',
    body: pledgeEventInputSchema,
    response: createPledgeEventResponseSchema,
    status: 201,
    errors: [401, 403, 409, 422],
  }),
  events: defineEndpoint({
    method: 'GET',
    path: '/api/v1/pledges/events',
    tags: ['pledges'],
    summary: 'Реестр событий залога организации: постранично, с фильтрами, пакетом и предупреждением о сроке',
    query: pledgeEventsQuerySchema,
    response: pledgeEventsResponseSchema,
    errors: [401, 422],
  }),
  event: defineEndpoint({
    method: 'GET',
    path: '/api/v1/pledges/events/:id',
    tags: ['pledges'],
    summary: 'Событие реестра с историей залога и историей пакета',
    params: pledgeParams,
    response: pledgeEventDetailSchema,
    errors: [401, 404, 422],
  }),
  correctEvent: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/pledges/events/:id',
    tags: ['pledges'],
    summary:
      'Исправить уведомление без пакета или с отказом реестра (вид не меняется, залог тот же); после исправления его можно включить в новый пакет',
    params: pledgeParams,
    body: pledgeEventInputSchema,
    response: createPledgeEventResponseSchema,
    errors: [401, 403, 404, 409, 422],
  }),
  packages: defineEndpoint({
    method: 'GET',
    path: '/api/v1/pledges/packages',
    tags: ['pledges'],
    summary: 'Пакеты уведомлений, новые сверху',
    query: pledgePackagesQuerySchema,
    response: pledgePackagesResponseSchema,
    errors: [401, 422],
  }),
  createPackage: defineEndpoint({
    method: 'POST',
    path: '/api/v1/pledges/packages',
    tags: ['pledges'],
    summary: 'Создать пакет из выбранных событий (события не должны быть в другом пакете)',
    body: createPledgePackageBodySchema,
    response: pledgePackageDetailSchema,
    status: 201,
    errors: [401, 403, 409, 422],
  }),
  package: defineEndpoint({
    method: 'GET',
    path: '/api/v1/pledges/packages/:id',
    tags: ['pledges'],
    summary: 'Пакет: статус, счётчики, история, может ли текущий пользователь его одобрить',
    params: pledgeParams,
    response: pledgePackageDetailSchema,
    errors: [401, 404, 422],
  }),
  addPackageEvents: defineEndpoint({
    method: 'POST',
    path: '/api/v1/pledges/packages/:id/events',
    tags: ['pledges'],
    summary: 'Добавить события в черновик пакета',
    params: pledgeParams,
    body: packageEventsBodySchema,
    response: pledgePackageDetailSchema,
    errors: [401, 403, 404, 409, 422],
  }),
  removePackageEvents: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/pledges/packages/:id/events',
    tags: ['pledges'],
    summary: 'Убрать события из черновика пакета',
    params: pledgeParams,
    body: packageEventsBodySchema,
    response: pledgePackageDetailSchema,
    errors: [401, 403, 404, 409, 422],
  }),
  transitionPackage: defineEndpoint({
    method: 'POST',
    path: '/api/v1/pledges/packages/:id/transition',
    tags: ['pledges'],
    summary:
      'Сменить статус пакета: approve (draft → ready, другим сотрудником), return, send, register, reject (с причиной)',
    params: pledgeParams,
    body: packageTransitionBodySchema,
    response: pledgePackageDetailSchema,
    errors: [401, 403, 404, 409, 422],
  }),
  saveRegistrationNumbers: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/pledges/packages/:id/registration-numbers',
    tags: ['pledges'],
    summary: 'Внести присвоенные реестром номера уведомлений пакета (отправленного или зарегистрированного)',
    params: pledgeParams,
    body: registrationNumbersBodySchema,
    response: registrationNumbersResponseSchema,
    errors: [401, 403, 404, 409, 422],
  }),
  importRegistrationNumbers: defineEndpoint({
    method: 'POST',
    path: '/api/v1/pledges/packages/:id/registration-numbers/file',
    tags: ['pledges'],
    summary:
      'Загрузить номера файлом (CSV/XLSX со столбцами «ID уведомления» и «Присвоенный номер», как в выгрузке XLSX)',
    bodyType: 'multipart',
    params: pledgeParams,
    response: registrationNumbersResponseSchema,
    errors: [400, 401, 403, 404, 409, 413, 422],
  }),
  importRegistryResults: defineEndpoint({
    method: 'POST',
    path: '/api/v1/pledges/packages/:id/registry-results',
    tags: ['pledges'],
    summary:
      'Загрузить ответ реестра (multipart, поле file: ZIP или один XML): свидетельства о регистрации (RegistrationCertificate) дают уведомлениям номера, отказы (RegistrationRejectMessage) видны на уведомлениях; всё в одной транзакции, при любой ошибке файла — 422 с её описанием и ничего не внесено',
    bodyType: 'multipart',
    params: pledgeParams,
    response: registrationNumbersResponseSchema,
    errors: [400, 401, 403, 404, 409, 413, 422],
  }),
  exportPackage: defineEndpoint({
    method: 'GET',
    path: '/api/v1/pledges/packages/:id/export',
    tags: ['pledges'],
    summary:
      'Выгрузить пакет: xml — ZIP уведомлений в формате реестра (УЗ1/УИ1/УП1, версия 2.3) для подписи и отправки; при нарушении правил формата — 422 со списком уведомлений и полей; json, xlsx — для людей',
    params: pledgeParams,
    query: packageExportQuerySchema,
    produces: ['application/json', XLSX, 'application/zip'],
    responseType: 'blob',
    response: file,
    errors: [401, 404, 409, 422],
  }),
};
