"use client";

import { useActionState } from "react";
import { type CreateWebhookState, createWebhookAction } from "@/app/settings/webhooks/actions";
import { EVENT_TYPES } from "@/lib/webhooks/events";
import { primaryButton, textInput } from "../styles";
import { SubmitButton } from "../submit-button";
import { SecretValue } from "./secret-value";

/**
 * `privateTargets`: whether this server delivers to local and private addresses over http too
 * (WEBHOOKS_ALLOW_PRIVATE=true, as `npm run demo` runs), so that the hint says what the URL may be.
 */
export function NewWebhookForm({ privateTargets }: { privateTargets: boolean }) {
  const [state, formAction] = useActionState<CreateWebhookState, FormData>(createWebhookAction, { status: "idle" });
  const errors = state.status === "invalid" ? state.errors : {};
  // After a refusal the form shows what was sent (React resets a form to its defaults after its action).
  const sent = state.status === "invalid" ? state.values : undefined;
  // Each result remounts the fields (a ticked box's default does not untick it): empty after an endpoint is added.
  const fieldsKey = state.status === "created" ? state.uuid : sent ? JSON.stringify(sent) : "idle";
  const eventErrors = Object.entries(errors)
    .filter(([field]) => field.startsWith("events"))
    .flatMap(([, messages]) => messages);
  return (
    <section
      aria-labelledby="new-webhook-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="new-webhook-heading" className="text-lg font-semibold">
        New endpoint
      </h2>
      {state.status === "created" && (
        <SecretValue key={state.secret} title={`Copy the signing secret of ${state.url} now`} secret={state.secret} />
      )}
      <form key={fieldsKey} action={formAction} className="mt-4 space-y-4">
        <div className="space-y-1.5">
          <label htmlFor="webhook-url" className="block text-sm font-medium">
            URL
          </label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            maxLength={2000}
            autoComplete="off"
            placeholder={privateTargets ? "https:// or http://localhost:…" : "https://"}
            defaultValue={sent?.url}
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={errors.url ? "webhook-url-hint webhook-url-error" : "webhook-url-hint"}
            className={textInput}
          />
          <p id="webhook-url-hint" className="text-sm text-slate-600">
            {privateTargets
              ? "An https address, or, on this server (it runs with WEBHOOKS_ALLOW_PRIVATE=true, as the demo does), " +
                "also http and local addresses such as http://localhost:4000/hook. Events are POSTed to it as JSON."
              : "An https address on the public internet. Events are POSTed to it as JSON. (A receiver on this " +
                "machine or a private network is refused: the server's operator allows those with " +
                "WEBHOOKS_ALLOW_PRIVATE=true, for development.)"}
          </p>
          {errors.url && (
            <p id="webhook-url-error" className="text-sm font-medium text-red-700">
              {errors.url[0]}
            </p>
          )}
        </div>
        <div className="space-y-1.5">
          <label htmlFor="webhook-description" className="block text-sm font-medium">
            Description <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            id="webhook-description"
            name="description"
            maxLength={500}
            defaultValue={sent?.description}
            className={textInput}
          />
        </div>
        <fieldset className="space-y-1.5" aria-describedby={eventErrors.length ? "webhook-events-error" : undefined}>
          <legend className="text-sm font-medium">Events</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="events"
                  value={type}
                  defaultChecked={sent?.events.includes(type)}
                  className="h-4 w-4 accent-slate-900"
                />
                <code>{type}</code>
              </label>
            ))}
          </div>
          {eventErrors.length > 0 && (
            <p id="webhook-events-error" className="text-sm font-medium text-red-700">
              Choose at least one event.
            </p>
          )}
        </fieldset>
        <SubmitButton label="Add endpoint" pendingLabel="Adding…" className={primaryButton} />
      </form>
      {state.status === "invalid" && (
        <p data-testid="webhook-form-error" role="alert" className="mt-2 text-sm font-medium text-red-700">
          The endpoint was not added: correct the fields marked above.
        </p>
      )}
    </section>
  );
}
