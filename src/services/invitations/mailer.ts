// Outgoing mail through nodemailer when SMTP_URL is configured; otherwise mail is off and we
// only log that (never the URL: it carries the SMTP password).
import type { Transporter } from "nodemailer";
import type Nodemailer from "nodemailer";
import type { Logger } from "pino";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly enabled: boolean;
  /** Never throws: failures are logged (with no credentials) and reported as false. */
  send(mail: OutgoingMail): Promise<boolean>;
}

const transports = new Map<string, Transporter>();

export function createMailer(smtpUrl: string | undefined, fromDomain: string, logger: Logger): Mailer {
  if (!smtpUrl) {
    return {
      enabled: false,
      async send(mail) {
        logger.info({ subject: mail.subject }, "outgoing mail is off (SMTP_URL not set); nothing sent");
        return false;
      },
    };
  }
  let transport = transports.get(smtpUrl);
  if (!transport) {
    // Loaded only when mail is configured: most servers never send any.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
    const nodemailer = require("nodemailer") as typeof Nodemailer;
    transport = nodemailer.createTransport(smtpUrl, { from: `Switchboard <noreply@${fromDomain}>` });
    transports.set(smtpUrl, transport);
  }
  const t = transport;
  return {
    enabled: true,
    async send(mail) {
      try {
        await t.sendMail(mail);
        return true;
      } catch (err) {
        const e = err as { code?: string; responseCode?: number };
        logger.warn({ code: e.code, responseCode: e.responseCode, subject: mail.subject }, "sending mail failed");
        return false;
      }
    },
  };
}
