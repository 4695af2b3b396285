"use client";

import { useActionState } from "react";
import { type ForgotPasswordState, forgotPasswordAction } from "@/app/signin/forgot/actions";
import { Field } from "./profile/field";
import { primaryButton } from "./styles";
import { SubmitButton } from "./submit-button";

/** The email to mail a reset link to; the answer is the same whether or not it has an account. */
export function ForgotPasswordForm() {
  const [state, formAction] = useActionState<ForgotPasswordState, FormData>(forgotPasswordAction, { status: "idle" });
  if (state.status === "sent")
    return (
      <p role="status" className="rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">
        {state.message}
      </p>
    );
  return (
    <form action={formAction} className="space-y-4">
      <Field
        name="email"
        label="Email"
        type="email"
        required
        autoComplete="username"
        autoFocus
        error={state.status === "invalid" ? state.message : undefined}
      />
      <SubmitButton label="Mail me a link" pendingLabel="Sending…" className={`${primaryButton} w-full`} />
    </form>
  );
}
