"use client";

import Link from "next/link";
import { type ReactNode, useActionState, useEffect, useRef } from "react";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-rules";
import type { SetPasswordResult } from "@/lib/team/mutations";
import { Field } from "../profile/field";
import { focusRing, primaryButton } from "../styles";
import { SubmitButton } from "../submit-button";

export type SetPasswordState = { status: "idle" } | SetPasswordResult;

/** What to say when the link stopped working while the form was open. */
export type LinkProblems = Record<"unknown" | "used" | "expired", string>;

/**
 * A password typed twice, set with a one-time link (an invite's first password, or a reset's new one); then on to
 * sign in at `signInHref`. `children`: more fields of the form (the reset's "also revoke my API tokens").
 */
export function SetPasswordForm({
  action,
  problems,
  signInHref,
  children,
}: {
  action: (previous: SetPasswordState, form: FormData) => Promise<SetPasswordState>;
  problems: LinkProblems;
  signInHref: string;
  children?: ReactNode;
}) {
  const [state, formAction] = useActionState<SetPasswordState, FormData>(action, { status: "idle" });
  const done = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (state.status === "done") done.current?.focus();
  }, [state.status]);

  if (state.status === "done") {
    return (
      <div role="status" className="rounded-md border border-green-300 bg-green-50 p-4">
        <h2 ref={done} tabIndex={-1} className="font-semibold text-green-900 focus:outline-none">
          Your password is set
        </h2>
        <p className="mt-1 text-sm break-words text-green-900">Sign in as {state.email} with it.</p>
        <Link
          href={signInHref}
          className={`mt-3 inline-block rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 ${focusRing}`}
        >
          Go to sign in
        </Link>
      </div>
    );
  }
  const errors = state.status === "invalid" ? state.errors : {};
  const problem = state.status in problems ? problems[state.status as keyof LinkProblems] : null;
  return (
    <form action={formAction} className="space-y-4">
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {problem}
        </p>
      )}
      {/* Each field shows its own message; this says them once to screen readers, as the answer arrives. */}
      <p role="alert" className="sr-only">
        {Object.values(errors).join(" ")}
      </p>
      <Field
        name="password"
        label="New password"
        type="password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        error={errors.password}
      />
      <Field
        name="confirmation"
        label="New password again"
        type="password"
        required
        autoComplete="new-password"
        error={errors.confirmation}
      />
      {children}
      <SubmitButton label="Set password" pendingLabel="Setting…" className={primaryButton} />
    </form>
  );
}
