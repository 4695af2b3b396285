// "Forgot password?" on the sign-in page, where the deployment can send mail (lib/mail): a one-time link to set a new
// password, mailed to the email typed (lib/team/password-reset.ts makes it). The page answers the same words whether
// or not the email has an account, and at once: the look-up, the link and the mail are made after the answer, so
// neither the words nor the time taken tell which emails have accounts. Requests are under the sign-in limits.

import { z } from "zod";
import { printedBaseUrl } from "@/lib/base-url";
import { clientAddress } from "@/lib/client-address";
import { logError, logRefusal } from "@/lib/core/log";
import { isStorableText } from "@/lib/core/validation";
import { prisma } from "@/lib/db/client";
import { mailConfigured, sendMail } from "@/lib/mail";
import { RESET_PATH } from "@/lib/paths";
import { createResetLinksForEmail, RESET_LINK_HOURS, type ResetLink } from "@/lib/team/password-reset";
import { resetMailAllowed } from "./sign-in";

/** The one answer to every request with a well-formed email. */
export const FORGOT_PASSWORD_ANSWER =
  `If an account has this email, a link to set a new password is on its way to it. The link works once, within ` +
  `${RESET_LINK_HOURS} hours. Nothing within a few minutes? Look in the spam folder, or ask your firm's Owner or an Admin.`;

export type ForgotPasswordResult = { status: "sent" | "invalid"; message: string };

const emailSchema = z.string().trim().pipe(z.email().max(254).refine(isStorableText));

/** Work to run after the answer (Next's after(): on Vercel the platform's waitUntil). */
type Defer = (task: () => Promise<void>) => void;

/** The mail's words: one link per firm the email is a person of. */
export function resetMail(email: string, links: ResetLink[]) {
  const base = printedBaseUrl();
  const lines = links.map((link) =>
    links.length > 1 ? `${link.firm}: ${base}${RESET_PATH}/${link.token}` : `${base}${RESET_PATH}/${link.token}`,
  );
  return {
    to: email,
    subject: "Set a new password for Client, Job and Time Tracking",
    text: [
      `Someone asked for a link to set a new password for ${email} at ${base}.`,
      "",
      links.length > 1 ? "Your email is a person's in several firms; each link is for one:" : "Open this link:",
      ...lines,
      "",
      `It works once, within ${RESET_LINK_HOURS} hours. Setting a new password signs you out everywhere.`,
      "If you did not ask for it, ignore this mail: your password stays as it is.",
    ].join("\n"),
  };
}

/**
 * Handles a "Forgot password?" request: checks the email's shape (a mistyped one is said so: that reveals nothing),
 * then, within the limits and where mail is configured, defers the look-up and the mail. Every well-formed email
 * gets the same answer.
 */
export async function requestPasswordReset(
  rawEmail: string,
  headers: Headers | undefined,
  defer: Defer,
): Promise<ForgotPasswordResult> {
  const parsed = emailSchema.safeParse(rawEmail);
  if (!parsed.success)
    return { status: "invalid", message: "Enter the email you sign in with, such as name@firm.com." };
  const email = parsed.data;
  if (!mailConfigured()) return { status: "sent", message: FORGOT_PASSWORD_ANSWER };
  const address = clientAddress(headers);
  if (!(await resetMailAllowed(email, headers))) {
    logRefusal("Password reset mail refused: sign-in limit", { address });
    return { status: "sent", message: FORGOT_PASSWORD_ANSWER };
  }
  defer(async () => {
    try {
      const links = await createResetLinksForEmail(await prisma(), email, address);
      if (links.length) await sendMail(resetMail(email, links));
    } catch (error) {
      logError("A password reset mail could not be sent", error);
    }
  });
  return { status: "sent", message: FORGOT_PASSWORD_ANSWER };
}
