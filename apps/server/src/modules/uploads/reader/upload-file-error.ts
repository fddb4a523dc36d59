/** A problem with the file itself (format, size, header): shown to the user as is, never retried. */
export class UploadFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadFileError';
  }
}

export const isUploadFileError = (error: unknown): error is UploadFileError =>
  error instanceof UploadFileError;
