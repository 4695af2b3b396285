"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef } from "react";
import { type SetPasswordState, setPasswordAction } from "@/app/invite/[token]/actions";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-rules";
import { SIGN_IN_PATH } from "@/lib/paths";
import { Field } from "../profile/field";
import { focusRing, primaryButton } from "../styles";
import { SubmitButton } from "../submit-button";

const LINK_PROBLEMS = {
  unknown: "This invite link no longer works. Ask whoever invited you for a new one.",
  used: "This invite link was already used. Sign in with the password set with it.",
  expired: "This invite link has expired. Ask whoever invited you for a new one.",
} as const;

/** The first password, typed twice; then on to sign in. */
export function SetPasswordForm({ token }: { token: string }) {
  const [state, formAction] = useActionState<SetPasswordState, FormData>(setPasswordAction.bind(null, token), {
    status: "idle",
  });
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
          href={SIGN_IN_PATH}
          className={`mt-3 inline-block rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 ${focusRing}`}
        >
          Go to sign in
        </Link>
      </div>
    );
  }
  const errors = state.status === "invalid" ? state.errors : {};
  const problem = state.status in LINK_PROBLEMS ? LINK_PROBLEMS[state.status as keyof typeof LINK_PROBLEMS] : null;
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
      <SubmitButton label="Set password" pendingLabel="Setting…" className={primaryButton} />
    </form>
  );
}
