"use client";

import { useActionState, useState } from "react";
import { type CreateTokenState, createToken } from "@/app/settings/api-tokens/actions";
import { DEFAULT_TOKEN_EXPIRY_DAYS, TOKEN_EXPIRY_DAYS } from "@/lib/tokens/options";
import { primaryButton, textInput } from "../styles";
import { SubmitButton } from "../submit-button";
import { useDeletions } from "./deletions";
import { NewTokenValue } from "./new-token-value";

const SCOPES = [
  { value: "read_write", label: "Read & write", hint: "Everything your role allows." },
  { value: "read", label: "Read only", hint: "GET requests only; any change is refused." },
] as const;

export function NewTokenForm() {
  const [state, formAction] = useActionState<CreateTokenState, FormData>(createToken, { status: "idle" });
  const [expiry, setExpiry] = useState(String(DEFAULT_TOKEN_EXPIRY_DAYS));
  const { deleted } = useDeletions();
  const invalid = state.status === "invalid";
  return (
    <section aria-labelledby="new-token-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="new-token-heading" className="text-lg font-semibold">
        New token
      </h2>
      {state.status === "created" && !deleted.has(state.id) && (
        <NewTokenValue key={state.token} name={state.name} token={state.token} />
      )}
      {/* React resets the form's fields after each submission: the warning follows the reset select. */}
      <form
        action={(form) => {
          setExpiry(String(DEFAULT_TOKEN_EXPIRY_DAYS));
          formAction(form);
        }}
        className="mt-4 space-y-4"
      >
        <div className="space-y-1.5">
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
          <p id="token-name-hint" className="text-sm text-slate-600">
            Say what will use it, for example “Monthly report script”. Up to 100 characters.
          </p>
        </div>
        <div className="space-y-1.5">
          <label htmlFor="token-expires" className="block text-sm font-medium">
            Expires
          </label>
          <select
            id="token-expires"
            name="expires"
            defaultValue={DEFAULT_TOKEN_EXPIRY_DAYS}
            onChange={(event) => setExpiry(event.target.value)}
            aria-describedby={expiry === "never" ? "token-expires-warning" : undefined}
            className={`${textInput} sm:max-w-xs`}
          >
            {TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={days} value={days}>
                In {days} days
              </option>
            ))}
            <option value="never">No expiry</option>
          </select>
          {expiry === "never" && (
            <p id="token-expires-warning" className="text-sm font-medium text-amber-800">
              A token without expiry works until someone deletes it: if it leaks, it can be used for as long as nobody
              notices. Prefer an expiry and create a new token when it ends.
            </p>
          )}
        </div>
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium">Access</legend>
          {SCOPES.map((scope, i) => (
            <label key={scope.value} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="scope"
                value={scope.value}
                defaultChecked={i === 0}
                className="mt-1 h-4 w-4 accent-slate-900"
              />
              <span>
                <span className="font-medium">{scope.label}</span> <span className="text-slate-600">{scope.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <SubmitButton label="Create token" pendingLabel="Creating…" className={primaryButton} />
      </form>
      {invalid && (
        <p id="token-name-error" role="alert" className="mt-2 text-sm font-medium text-red-700">
          {state.error}
        </p>
      )}
    </section>
  );
}
