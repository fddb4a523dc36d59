import { z } from 'zod';

/** An `:id` path parameter with a Russian message naming what the id is of. */
export const idParams = (what: string) =>
  z.object({ id: z.uuid({ error: `Неверный идентификатор ${what}` }) });
