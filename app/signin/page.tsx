import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in-form";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { signedInUser } from "@/lib/auth/session";
import { mailConfigured } from "@/lib/mail";

export const metadata: Metadata = { title: "Sign in · Client, Job and Time Tracking" };

type SearchParams = Promise<{
  callbackUrl?: string | string[];
  error?: string | string[];
  signed_out?: string | string[];
  reset?: string | string[];
}>;

/** What brought the visitor here, said above the form: they signed out, or set a new password. */
const NOTES = {
  signed_out: "You are signed out.",
  reset: "Your new password is set, and you were signed out everywhere. Sign in with it.",
} as const;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeCallbackUrl(params.callbackUrl);
  if (await signedInUser()) redirect(next);
  const note = params.reset !== undefined ? NOTES.reset : params.signed_out !== undefined ? NOTES.signed_out : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      <p className="mt-2 mb-8 text-sm text-slate-600">Client, Job and Time Tracking</p>
      {note && (
        <p
          role="status"
          className="mb-6 rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900"
        >
          {note}
        </p>
      )}
      <SignInForm
        callbackUrl={next}
        initialError={typeof params.error === "string" ? params.error : undefined}
        mail={mailConfigured()}
      />
    </main>
  );
}
