/** The one mail transport of every process (app and worker): SMTP, or nothing when SMTP_URL is unset. */
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stable Message-ID (`<id@host>`): a resent mail keeps it, so receivers can drop the duplicate. */
  messageId?: string;
  headers?: Record<string, string>;
}

/** Sends through SMTP when SMTP_URL is set; otherwise `smtpEnabled` is false and mail stays in the outbox. */
export interface Mailer {
  smtpEnabled: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(options: { smtpUrl?: string; from: string }): Mailer {
  if (!options.smtpUrl) {
    return {
      smtpEnabled: false,
      send: async () => {},
      close: () => {},
    };
  }
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    smtpEnabled: true,
    async send(message) {
      await transport.sendMail({ from: options.from, ...message });
    },
    close: () => transport.close(),
  };
}
