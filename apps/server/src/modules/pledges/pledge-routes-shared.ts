/** What the pledge route files share: reading the one uploaded file. */
import type { FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../lib/app-error.ts';

export async function fileOf(request: FastifyRequest) {
  try {
    const file = request.isMultipart() ? await request.file() : undefined;
    if (file) {
      return file;
    }
  } catch (error) {
    if (isAppError(error)) {
      throw error; // the edge's refusal (input-guard), e.g. a NUL in the file name
    }
    // a broken multipart body is the same as no file for the user
  }
  throw new AppError('UPLOAD_NO_FILE');
}
