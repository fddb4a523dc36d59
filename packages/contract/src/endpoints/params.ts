import { z } from 'zod';

/** An `:id` path parameter with a Russian message naming what the id is of. */
export const idParams = (message: string) => z.object({ id: z.uuid({ error: message }) });

/** A file answer: streamed as it is, the schema only documents it in OpenAPI. */
export const fileResponse = (description: string) => z.any().describe(description);

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
