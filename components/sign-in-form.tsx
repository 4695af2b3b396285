"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { nextWaitSeconds, signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { FORGOT_PASSWORD_PATH } from "@/lib/paths";
import { focusRing, primaryButton, textInput } from "./styles";

/**
 * The sign-in form. `mail`: whether the deployment can mail a reset link ("Forgot password?"); without it the form
 * says whom to ask instead.
 */
export function SignInForm({
  callbackUrl,
  initialError,
  mail,
}: {
  callbackUrl: string;
  initialError?: string;
  mail: boolean;
}) {
  const [error, setError] = useState(initialError ? signInErrorMessage(initialError) : null);
  const [pending, setPending] = useState(false);
  // How long the server said the next try waits before it is checked: the button says so while it waits.
  const [wait, setWait] = useState(initialError ? nextWaitSeconds(initialError) : 0);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: form.get("email"),
      password: form.get("password"),
      redirect: false,
    });
    if (result?.ok && !result.error) {
      // A full page load, so that the next page is rendered with the new session cookie.
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? ""));
    setWait(nextWaitSeconds(result?.error ?? ""));
  }

  return (
    // method="post": a submit before the page's script has loaded must not put the password in the URL.
    <form method="post" onSubmit={submit} className="space-y-5" aria-describedby={error ? "signin-error" : undefined}>
      {error && (
        <p
          id="signin-error"
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <div className="space-y-1.5">
        <label htmlFor="email" className="block text-sm font-medium">
          Email
        </label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus className={textInput} />
      </div>
      <div className="space-y-1.5">
        <div className="flex items-baseline justify-between gap-3">
          <label htmlFor="password" className="block text-sm font-medium">
            Password
          </label>
          {mail && (
            <Link
              href={FORGOT_PASSWORD_PATH}
              className={`rounded text-sm text-slate-700 underline underline-offset-2 hover:text-slate-900 ${focusRing}`}
            >
              Forgot password?
            </Link>
          )}
        </div>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={textInput}
        />
      </div>
      <button type="submit" disabled={pending} className={`${primaryButton} w-full`}>
        {pending ? (wait ? `Signing in… (waits ${wait} s before the check)` : "Signing in…") : "Sign in"}
      </button>
      {!mail && (
        <p className="text-sm text-slate-600">
          Forgot your password? Ask your firm’s Owner or an Admin: on the Team page they can give you a one-time link to
          set a new one.
        </p>
      )}
    </form>
  );
}
