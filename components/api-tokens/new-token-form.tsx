"use client";

import { useActionState, useState } from "react";
import { type CreateTokenState, createToken, type TokenFormValues } from "@/app/settings/api-tokens/actions";
import { type AccessLevel, levelsOf, PRESET_LABELS, resourceLabel, TOKEN_RESOURCES } from "@/lib/tokens/access";
import { TOKEN_EXPIRY_DAYS } from "@/lib/tokens/options";
import { primaryButton, textInput } from "../styles";
import { SubmitButton } from "../submit-button";
import { useDeletions } from "./deletions";
import { NewTokenValue } from "./new-token-value";

/** The spec says tokens do not expire: "No expiry" is the default (decisions.md, Tokens). */
const DEFAULT_EXPIRY = "never";
const PRESETS = [
  { value: "full", hint: "Everything your role allows." },
  { value: "read", hint: "Reads everything your role may see; any change is refused." },
  { value: "custom", hint: "Choose per resource." },
] as const;
const LEVEL_LABELS: Record<AccessLevel, string> = { none: "No access", read: "Read", write: "Read and write" };

export function NewTokenForm() {
  const [state, formAction] = useActionState<CreateTokenState, FormData>(createToken, { status: "idle" });
  const { deleted } = useDeletions();
  const sent = state.status === "invalid" ? state.values : undefined;
  // A new result remounts the fields: empty after a creation, as sent after a refusal.
  const fieldsKey = state.status === "created" ? `created-${state.id}` : sent ? JSON.stringify(sent) : "idle";
  return (
    <section aria-labelledby="new-token-heading" className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="new-token-heading" className="text-lg font-semibold">
        New token
      </h2>
      {state.status === "created" && !deleted.has(state.id) && (
        <NewTokenValue key={state.token} name={state.name} token={state.token} />
      )}
      <TokenFields key={fieldsKey} sent={sent} formAction={formAction} error={state.status === "invalid"} />
      {state.status === "invalid" && (
        <p id="token-name-error" role="alert" className="mt-2 text-sm font-medium text-red-700">
          {state.error}
        </p>
      )}
    </section>
  );
}

function TokenFields({
  sent,
  formAction,
  error,
}: {
  sent?: TokenFormValues;
  formAction: (form: FormData) => void;
  error: boolean;
}) {
  const [expiry, setExpiry] = useState<string>(sent?.expires || DEFAULT_EXPIRY);
  const [preset, setPreset] = useState<string>(sent?.preset || "full");
  const invalid = error;
  return (
    <form action={formAction} className="mt-4 space-y-4">
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
          defaultValue={sent?.name}
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
          defaultValue={expiry}
          onChange={(event) => setExpiry(event.target.value)}
          aria-describedby={expiry === "never" ? "token-expires-note" : undefined}
          className={`${textInput} sm:max-w-xs`}
        >
          <option value="never">No expiry</option>
          {TOKEN_EXPIRY_DAYS.map((days) => (
            <option key={days} value={days}>
              In {days} days
            </option>
          ))}
        </select>
        {expiry === "never" && (
          <p id="token-expires-note" className="text-sm text-slate-600">
            It works until you delete it. For a token that leaves your hands, an expiry limits what a leak can do.
          </p>
        )}
      </div>
      <fieldset className="space-y-1.5">
        <legend className="text-sm font-medium">Access</legend>
        {PRESETS.map((option) => (
          <label key={option.value} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="preset"
              value={option.value}
              defaultChecked={option.value === preset}
              onChange={(event) => setPreset(event.target.value)}
              className="mt-1 h-4 w-4 shrink-0 accent-slate-900"
            />
            <span>
              <span className="font-medium">{PRESET_LABELS[option.value]}</span>{" "}
              <span className="text-slate-600">{option.hint}</span>
            </span>
          </label>
        ))}
        {preset === "custom" && (
          <div className="mt-2 grid gap-x-4 gap-y-2 sm:max-w-md sm:grid-cols-[auto_1fr] sm:items-center">
            {TOKEN_RESOURCES.map((resource) => (
              <div key={resource} className="contents">
                <label htmlFor={`token-access-${resource}`} className="text-sm first-letter:uppercase">
                  {resourceLabel(resource)}
                </label>
                <select
                  id={`token-access-${resource}`}
                  name={`access.${resource}`}
                  defaultValue={sent?.access[resource] || "none"}
                  className={`${textInput} mb-1 sm:mb-0`}
                >
                  {levelsOf(resource).map((level) => (
                    <option key={level} value={level}>
                      {LEVEL_LABELS[level]}
                    </option>
                  ))}
                </select>
              </div>
            ))}
            <p className="text-sm text-slate-600 sm:col-span-2">Your role can still allow less than you choose.</p>
          </div>
        )}
      </fieldset>
      <SubmitButton label="Create token" pendingLabel="Creating…" className={primaryButton} />
    </form>
  );
}
