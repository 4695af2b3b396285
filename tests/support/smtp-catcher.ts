// A local SMTP server that keeps what it is sent, for the tests of "Forgot password?" (vitest and Playwright): the
// app's real mail path (nodemailer over SMTP) delivers to it. On loopback, no TLS, any sender and recipient.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CaughtMail {
  to: string[];
  /** The message's headers and body, the body's quoted-printable soft breaks and escapes undone. */
  text: string;
}

export interface SmtpCatcher {
  url: string;
  mails: CaughtMail[];
  /** The next mail to `to` (already caught or still to come), within `timeoutMs`. */
  mailTo(to: string, timeoutMs?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

export async function startSmtpCatcher(port = 0): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        mails.push({ to, text: decodeQuotedPrintable(Buffer.concat(chunks).toString("utf8")) });
        for (const wake of waiting) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    mailTo(to, timeoutMs = 10_000) {
      const found = () => mails.find((mail) => mail.to.includes(to));
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = found();
          if (!mail) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`No mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
