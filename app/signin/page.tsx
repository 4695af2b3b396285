import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in-form";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { signedInUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in · Client, Job and Time Tracking" };

type SearchParams = Promise<{ callbackUrl?: string | string[]; error?: string | string[] }>;

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const { callbackUrl, error } = await searchParams;
  const next = safeCallbackUrl(callbackUrl);
  if (await signedInUser()) redirect(next);
  return (
    <main className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-4 py-12">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      <p className="mt-2 mb-8 text-sm text-slate-600">Client, Job and Time Tracking</p>
      <SignInForm callbackUrl={next} initialError={typeof error === "string" ? error : undefined} />
    </main>
  );
}
