// Sending mail, where the deployment has mail settings (SMTP_URL; MAIL_FROM optional): what "Forgot password?" on
// the sign-in page sends. Without them nothing is mailed and the page says whom to ask instead. nodemailer speaks
// SMTP (any provider's relay: SES, Postmark, Mailgun, SendGrid … all offer one), with TLS as the URL says
// (`smtps://` at once, `smtp://` upgraded with STARTTLS where the server offers it).
import nodemailer, { type Transporter } from "nodemailer";
import { printedBaseUrl } from "@/lib/base-url";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Whether mail can be sent: SMTP settings, and a configured public address for the links it holds (APP_URL or
 * NEXTAUTH_URL). A link is never built from a request's Host header, which a visitor chooses: a reset link for
 * someone else's email would lead to the visitor's own site.
 */
export function mailConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.SMTP_URL && (env.APP_URL || env.NEXTAUTH_URL));
}

/** The sender: MAIL_FROM, else no-reply at the public address's host. */
function sender(): string {
  if (process.env.MAIL_FROM) return process.env.MAIL_FROM;
  return `"Client, Job and Time Tracking" <no-reply@${new URL(printedBaseUrl()).hostname}>`;
}

let transport: { url: string; transporter: Transporter } | undefined;

/** One pooled transport per SMTP URL (a test changes the URL between files). */
function transporter(url: string): Transporter {
  if (transport?.url !== url) {
    transport?.transporter.close();
    // Bounded waits: a relay that does not answer fails the send, logged, instead of holding it for minutes.
    transport = {
      url,
      transporter: nodemailer.createTransport(url, {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    };
  }
  return transport.transporter;
}

/** Sends one plain-text mail; throws when mail is not configured or the relay refuses it. */
export async function sendMail(mail: Mail): Promise<void> {
  const url = process.env.SMTP_URL;
  if (!url || !mailConfigured()) throw new Error("Mail is not configured: set SMTP_URL and APP_URL.");
  await transporter(url).sendMail({ from: sender(), ...mail });
}
