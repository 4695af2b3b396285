import type { Metadata } from "next";
import { LinkProblem } from "@/components/team/link-problem";
import { SetPasswordForm } from "@/components/team/set-password-form";
import { SIGN_IN_PATH } from "@/lib/paths";
import { lookupResetLink } from "@/lib/team/queries";
import { resetPasswordAction } from "./actions";

export const metadata: Metadata = {
  title: "Set a new password · Client, Job and Time Tracking",
  // The path holds a secret: keep it out of search engines (the Referrer-Policy already keeps it out of Referer).
  robots: { index: false, follow: false },
};

const ASK = "Ask your firm's Owner or an Admin for a new one, or use “Forgot password?” on the sign-in page.";

const PROBLEMS = {
  unknown: {
    title: "This link does not work",
    text: `It may be mistyped, or replaced by a newer link. ${ASK}`,
  },
  used: {
    title: "This link was already used",
    text: "A new password has been set with it: sign in with it. If that was not you, tell your firm's Owner or an Admin at once.",
  },
  expired: {
    title: "This link has expired",
    text: `A link to set a new password works for 24 hours. ${ASK}`,
  },
} as const;

const LINK_PROBLEMS = {
  unknown: `This link no longer works. ${ASK}`,
  used: "This link was already used. Sign in with the password set with it.",
  expired: `This link has expired. ${ASK}`,
};

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await lookupResetLink(token);
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      {link.status === "valid" ? (
        <>
          <h1 className="text-2xl font-semibold">Set a new password</h1>
          <p className="mt-2 mb-8 text-sm break-words text-slate-600">
            {link.person.name}, choose a new password to sign in to {link.person.firm} as{" "}
            <span className="font-medium text-slate-900">{link.person.email}</span>. Setting it signs you out
            everywhere.
          </p>
          <SetPasswordForm
            action={resetPasswordAction.bind(null, token)}
            problems={LINK_PROBLEMS}
            signInHref={`${SIGN_IN_PATH}?reset`}
          >
            <div className="flex items-start gap-2">
              <input
                id="revoke-tokens"
                name="revokeTokens"
                type="checkbox"
                className="mt-1 size-4 rounded border-slate-300"
              />
              <label htmlFor="revoke-tokens" className="text-sm">
                Also revoke my API tokens
                <span className="block text-slate-600">
                  If someone else may have used your account. Programs using them stop working until you make new ones.
                </span>
              </label>
            </div>
          </SetPasswordForm>
        </>
      ) : (
        <LinkProblem {...PROBLEMS[link.status]} signIn={true} />
      )}
    </main>
  );
}
