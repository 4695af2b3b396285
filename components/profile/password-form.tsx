"use client";

import { useActionState } from "react";
import { type FormState, savePassword } from "@/app/settings/profile/actions";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-rules";
import { primaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { Field, FormMessage } from "./field";

export function PasswordForm() {
  const [state, formAction] = useActionState<FormState, FormData>(savePassword, { status: "idle" });
  const errors = state.status === "invalid" ? state.errors : {};
  return (
    <section aria-labelledby="password-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="password-heading" className="text-lg font-semibold">
        Password
      </h2>
      <p className="mt-1 text-sm text-slate-600">Changing it signs you out on every other device.</p>
      <form action={formAction} className="mt-4 space-y-4">
        <Field
          name="current"
          label="Current password"
          type="password"
          required
          autoComplete="current-password"
          error={errors.current}
        />
        <Field
          name="next"
          label="New password"
          type="password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={errors.next}
        />
        <Field
          name="confirmation"
          label="New password again"
          type="password"
          required
          autoComplete="new-password"
          error={errors.confirmation}
        />
        <div className="flex items-center gap-4">
          <SubmitButton label="Change password" pendingLabel="Changing…" className={primaryButton} />
          <FormMessage message={state.status === "saved" ? state.message : undefined} />
        </div>
      </form>
    </section>
  );
}
