import { expect } from '@playwright/test';
import { E2E_MAIL_API_URL } from './stack.ts';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Waits until the test SMTP server has received a mail for the address, and returns the newest. */
export async function waitForMail(to: string, subject: RegExp, timeout = 20_000): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${E2E_MAIL_API_URL}/?to=${encodeURIComponent(to)}`);
        const mails = (await response.json()) as ReceivedMail[];
        found = mails.reverse().find((mail) => subject.test(mail.subject));
        return Boolean(found);
      },
      { timeout },
    )
    .toBe(true);
  return found!;
}

export function linkFrom(mail: ReceivedMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) {
    throw new Error(`no link in mail: ${mail.text}`);
  }
  return match[0];
}
