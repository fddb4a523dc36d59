import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.ts';

/** Raw NUL or its percent-encoding anywhere in the path or query string. */
const urlHasNul = (url: string): boolean => url.includes('\u0000') || /%00/i.test(url);

/** The dotted path of the first string (value or key) holding a NUL, or null. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? path : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) {
        return found;
      }
    }
    return null;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value) && !ArrayBuffer.isView(value)) {
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) {
        return itemPath;
      }
      const found = findNul(item, itemPath);
      if (found !== null) {
        return found;
      }
    }
  }
  return null;
}

const refuse = (field?: string) =>
  new AppError('INVALID_CHARACTERS', {
    fieldErrors: field ? [{ field, message: 'Поле содержит недопустимый символ (NUL)' }] : undefined,
  });

type MultipartPart = { filename?: string; fields?: Record<string, unknown> } | undefined;
type FileReader = (...args: unknown[]) => Promise<MultipartPart>;

/** Text of a multipart part: its file name and the plain fields sent before it. */
function multipartText(part: NonNullable<MultipartPart>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(part.fields ?? {})) {
    fields[name] = (Array.isArray(entry) ? entry : [entry]).map((item) => {
      const field = item as { type?: string; value?: unknown; filename?: string };
      return field.type === 'field' ? field.value : field.filename;
    });
  }
  return { filename: part.filename, ...fields };
}

/**
 * One rule at the edge: a NUL character can be stored nowhere (PostgreSQL text refuses it) and has no
 * business in any input, so every request carrying one is answered 422 before any handler runs:
 * path and query string (raw or percent-encoded), parsed JSON and form bodies (values and keys, at any
 * depth) and multipart file names and text fields.
 */
export default fp(
  async (fastify) => {
    fastify.addHook('onRequest', async (request) => {
      if (urlHasNul(request.url)) {
        throw refuse();
      }
    });
    fastify.addHook('preValidation', async (request) => {
      for (const [part, value] of [
        ['query', request.query],
        ['params', request.params],
        ['body', request.body],
      ] as const) {
        const found = findNul(value);
        if (found !== null) {
          throw refuse(found || part);
        }
      }
    });
    // Multipart bodies are read by the handler (streamed files), so the check wraps request.file().
    fastify.addHook('preHandler', async (request: FastifyRequest) => {
      const target = request as unknown as { file?: FileReader; isMultipart?: () => boolean };
      const readFile = target.file;
      if (typeof readFile !== 'function' || !target.isMultipart?.()) {
        return;
      }
      target.file = async (...args: unknown[]) => {
        const part = await readFile.apply(request, args);
        if (part) {
          const found = findNul(multipartText(part));
          if (found !== null) {
            throw refuse(found);
          }
        }
        return part;
      };
    });
  },
  { name: 'input-guard' },
);
