"use client";

import { useActionState } from "react";
import { type CreateTokenState, createToken } from "@/app/settings/api-tokens/actions";
import { primaryButton, textInput } from "../styles";
import { SubmitButton } from "../submit-button";
import { NewTokenValue } from "./new-token-value";

export function NewTokenForm() {
  const [state, formAction] = useActionState<CreateTokenState, FormData>(createToken, { status: "idle" });
  const invalid = state.status === "invalid";
  return (
    <section aria-labelledby="new-token-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="new-token-heading" className="text-lg font-semibold">
        New token
      </h2>
      {state.status === "created" && <NewTokenValue key={state.token} name={state.name} token={state.token} />}
      <form action={formAction} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1 space-y-1.5">
          <label htmlFor="token-name" className="block text-sm font-medium">
            Name
          </label>
          <input
            id="token-name"
            name="name"
            required
            maxLength={100}
            autoComplete="off"
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? "token-name-hint token-name-error" : "token-name-hint"}
            className={textInput}
          />
        </div>
        <SubmitButton label="Create token" pendingLabel="Creating…" className={primaryButton} />
      </form>
      <p id="token-name-hint" className="mt-2 text-sm text-slate-600">
        Say what will use it, for example “Monthly report script”. Up to 100 characters.
      </p>
      {invalid && (
        <p id="token-name-error" className="mt-1 text-sm font-medium text-red-700">
          {state.error}
        </p>
      )}
    </section>
  );
}
