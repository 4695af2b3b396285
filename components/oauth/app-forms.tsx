"use client";
// The app-policy page's two forms that answer with something to show: listing an app (what was wrong) and registering
// one (its client_id, and a confidential app's secret, shown this once).
import { useActionState } from "react";
import { listAppAction, registerAppAction } from "@/app/settings/apps/actions";
import { ShownOnce } from "@/components/shown-once";
import { primaryButton, textInput } from "@/components/styles";
import { FULL_ACCESS, TOKEN_RESOURCES } from "@/lib/tokens/access";
import { AccessLevelSelect } from "./access-level-select";

export function ListAppForm() {
  const [state, action] = useActionState(listAppAction, { status: "idle" });
  return (
    <form action={action} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 className="font-medium">List an app</h3>
      <label className="block text-sm">
        <span className="font-medium">Client ID</span>
        <input name="client_id" required className={`${textInput} mt-1`} placeholder="cjc_… or https://…" />
      </label>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">The most it may do (its cap)</legend>
        {TOKEN_RESOURCES.map((resource) => (
          <AccessLevelSelect
            key={resource}
            resource={resource}
            name={`cap.${resource}`}
            defaultValue={FULL_ACCESS[resource]}
          />
        ))}
      </fieldset>
      <Submit label="List app" error={state.status === "invalid" ? state.error : null} />
    </form>
  );
}

export function RegisterAppForm() {
  const [state, action] = useActionState(registerAppAction, { status: "idle" });
  return (
    <form action={action} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 className="font-medium">Register an app</h3>
      <label className="block text-sm">
        <span className="font-medium">Name</span>
        <input name="name" required maxLength={100} className={`${textInput} mt-1`} />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Redirect URIs (one per line; https, or http on 127.0.0.1 for a native app)</span>
        <textarea name="redirect_uris" required rows={2} className={`${textInput} mt-1`} />
      </label>
      <fieldset className="text-sm">
        <legend className="font-medium">Type</legend>
        <label className="mr-4">
          <input type="radio" name="type" value="confidential" defaultChecked /> Confidential (a server: gets a secret)
        </label>
        <label>
          <input type="radio" name="type" value="public" /> Public (a native or browser app: PKCE only)
        </label>
      </fieldset>
      <Submit label="Register app" error={state.status === "invalid" ? state.error : null} />
      {state.status === "registered" &&
        (state.secret ? (
          <ShownOnce
            heading={`${state.name} is registered: client ID ${state.clientId}`}
            label="Client secret"
            fieldId="new-client-secret"
            value={state.secret}
            what="secret"
          >
            Copy its client secret now: it is shown only this once. The app sends both with HTTP Basic to the token
            endpoint.
          </ShownOnce>
        ) : (
          <p role="status" className="text-sm">
            {state.name} is registered: client ID <code className="break-all">{state.clientId}</code>.
          </p>
        ))}
    </form>
  );
}

/** A form's refusal (if any) and its submit button. */
function Submit({ label, error }: { label: string; error: string | null }) {
  return (
    <>
      {error && (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      )}
      <button type="submit" className={primaryButton}>
        {label}
      </button>
    </>
  );
}
