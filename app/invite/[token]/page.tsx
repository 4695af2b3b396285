import type { Metadata } from "next";
import { LinkProblem } from "@/components/team/link-problem";
import { SetPasswordForm } from "@/components/team/set-password-form";
import { SIGN_IN_PATH } from "@/lib/paths";
import { lookupInvite } from "@/lib/team/queries";
import { setPasswordAction } from "./actions";

export const metadata: Metadata = {
  title: "Set your password · Client, Job and Time Tracking",
  // The path holds a secret: keep it out of search engines (the Referrer-Policy already keeps it out of Referer).
  robots: { index: false, follow: false },
};

const PROBLEMS = {
  unknown: {
    title: "This invite link does not work",
    text: "It may be mistyped, or replaced by a newer link. Ask whoever invited you for a new one.",
  },
  used: {
    title: "This invite link was already used",
    text: "A password has been set with it: sign in with it. If that was not you, tell whoever invited you at once.",
  },
  expired: {
    title: "This invite link has expired",
    text: "An invite link works for 7 days. Ask whoever invited you for a new one.",
  },
} as const;

/** When the link stops working while the form is open. */
const LINK_PROBLEMS = {
  unknown: "This invite link no longer works. Ask whoever invited you for a new one.",
  used: "This invite link was already used. Sign in with the password set with it.",
  expired: "This invite link has expired. Ask whoever invited you for a new one.",
};

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await lookupInvite(token);
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      {invite.status === "valid" ? (
        <>
          <h1 className="text-2xl font-semibold">Set your password</h1>
          <p className="mt-2 mb-8 text-sm break-words text-slate-600">
            Welcome to {invite.person.firm}, {invite.person.name}. Choose a password to sign in as{" "}
            <span className="font-medium text-slate-900">{invite.person.email}</span>.
          </p>
          <SetPasswordForm
            action={setPasswordAction.bind(null, token)}
            problems={LINK_PROBLEMS}
            signInHref={SIGN_IN_PATH}
          />
        </>
      ) : (
        <LinkProblem {...PROBLEMS[invite.status]} signIn={invite.status === "used"} />
      )}
    </main>
  );
}
