"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { primaryButton, textInput } from "./styles";

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [error, setError] = useState(initialError ? signInErrorMessage(initialError) : null);
  const [pending, setPending] = useState(false);

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
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
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
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
