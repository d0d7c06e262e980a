import type { Transporter } from 'nodemailer';

/** Where e-mail goes: an SMTP server (`SMTP_URL`), or, without one, nowhere but the outbox. */
export interface MailConfig {
  /** smtp://user:password@host:port (or smtps://); unset: e-mails are kept in the outbox only. */
  smtpUrl?: string;
  /** The From header, `MAIL_FROM`. */
  from: string;
}

export const DEFAULT_FROM = 'Course Portal <no-reply@course-portal.invalid>';

export function mailConfigFromEnv(env: NodeJS.ProcessEnv = process.env): MailConfig {
  return { smtpUrl: env.SMTP_URL || undefined, from: env.MAIL_FROM || DEFAULT_FROM };
}

export interface Letter {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  /** Files sent with the letter (not kept in the outbox). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface Delivery {
  transport: 'smtp' | 'outbox';
  messageId: string | null;
}

/**
 * Sends through nodemailer. Without SMTP_URL, nodemailer's JSON transport builds the message and
 * sends nothing: the e-mail stays in the outbox (its event) for admins to read. nodemailer is
 * loaded, and the transport made, for the first letter: not at every start (70 ms of the portal's
 * main thread; docs/performance.md, machine AL).
 */
export function createMailer(config: MailConfig) {
  let made: Promise<Transporter> | undefined;
  const transport = () =>
    (made ??= import('nodemailer').then(({ default: nodemailer }) =>
      config.smtpUrl
        ? nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 10_000, socketTimeout: 20_000 })
        : nodemailer.createTransport({ jsonTransport: true }),
    ));
  return {
    configured: Boolean(config.smtpUrl),
    async send(letter: Letter): Promise<Delivery> {
      const info = await (await transport()).sendMail({ from: config.from, ...letter });
      return { transport: config.smtpUrl ? 'smtp' : 'outbox', messageId: info.messageId ?? null };
    },
    /** Closes the transport, if a letter made one (a transport that failed to load has none). */
    async close() {
      (await made?.catch(() => undefined))?.close();
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
