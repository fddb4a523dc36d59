/** The mail module's public entry: queueing mail, its templates and the outbox other modules read. */

export { deliverMailJob } from './jobs/deliver-mail.job.ts';
export { findOutboxMails, insertOutboxMail, markOutboxMail } from './mail.queries.ts';
export { queueMail } from './mail.service.ts';
export {
  changeEmailMail,
  emailTakenMail,
  inviteMail,
  inviteTakenMail,
  passwordChangedMail,
  resetPasswordMail,
  verifyEmailMail,
} from './mail.templates.ts';
