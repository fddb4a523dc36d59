/** A backup or restore that cannot go on: printed as its one-sentence message, without a stack. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
