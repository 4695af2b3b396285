import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ForgotPasswordForm } from "@/components/forgot-password-form";
import { focusRing } from "@/components/styles";
import { signedInUser } from "@/lib/auth/session";
import { mailConfigured } from "@/lib/mail";
import { PROFILE_PATH, SIGN_IN_PATH } from "@/lib/paths";

export const metadata: Metadata = { title: "Forgot password · Client, Job and Time Tracking" };

export default async function ForgotPasswordPage() {
  // Someone signed in changes their password on their profile, with the current one.
  if (await signedInUser()) redirect(PROFILE_PATH);
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      <h1 className="text-2xl font-semibold">Forgot password</h1>
      {mailConfigured() ? (
        <>
          <p className="mt-2 mb-8 text-sm text-slate-600">
            Type the email you sign in with: a one-time link to set a new password is mailed to it.
          </p>
          <ForgotPasswordForm />
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-600">
          This service cannot send mail. Ask your firm’s Owner or an Admin: on the Team page they can give you a
          one-time link to set a new password.
        </p>
      )}
      <Link
        href={SIGN_IN_PATH}
        className={`mt-6 self-start rounded text-sm font-medium underline underline-offset-2 ${focusRing}`}
      >
        Back to sign in
      </Link>
    </main>
  );
}
