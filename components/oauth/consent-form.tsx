// The consent form: a plain HTML form (no script needed) posting to /oauth/authorize.
import { primaryButton, secondaryButton, textInput } from "@/components/styles";
import type { FirmOption } from "@/lib/oauth/consent";
import { GRANT_EXPIRY_DAYS } from "@/lib/oauth/settings";
import { OAUTH_AUTHORIZE_PATH, OAUTH_CONSENT_PATH } from "@/lib/paths";
import { TOKEN_RESOURCES } from "@/lib/tokens/access";
import { AccessLevelSelect } from "./access-level-select";

const AUDIENCE_WORDS = { api: "the API (/api/v1)", mcp: "the assistant endpoint (/api/mcp)" };

export function ConsentForm({
  sealed,
  csrf,
  appName,
  clientId,
  redirectUri,
  audience,
  offline,
  firms,
  chosen,
  email,
}: {
  sealed: string;
  csrf: string;
  appName: string;
  clientId: string;
  redirectUri: string;
  audience: "api" | "mcp";
  offline: boolean;
  firms: { tenantId: number; tenantName: string }[];
  chosen: FirmOption | undefined;
  email: string;
}) {
  const redirectHost = new URL(redirectUri).host;
  const asked = TOKEN_RESOURCES.filter((resource) => chosen && chosen.offered[resource] !== "none");
  return (
    <form method="post" action={OAUTH_AUTHORIZE_PATH} className="space-y-6">
      <input type="hidden" name="request" value={sealed} />
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="firm" value={chosen?.tenantId ?? ""} />
      <div>
        <h1 className="text-2xl font-semibold break-words">Connect {appName}?</h1>
        {!chosen?.listed && (
          <p className="mt-2 inline-block rounded bg-amber-100 px-2 py-1 text-sm font-medium text-amber-900">
            Unverified app: your firm has not listed it
          </p>
        )}
        <p className="mt-3 text-slate-700">
          {appName} wants to use {AUDIENCE_WORDS[audience]} as you ({email}). Afterwards it sends you back to{" "}
          <strong className="break-all">{redirectHost}</strong>.
        </p>
        <p className="mt-1 text-xs break-all text-slate-500">App id: {clientId}</p>
      </div>

      {firms.length > 1 && (
        <fieldset>
          <legend className="text-sm font-semibold">Firm</legend>
          <ul className="mt-2 flex flex-wrap gap-2">
            {firms.map((firm) => (
              <li key={firm.tenantId}>
                <a
                  href={`${OAUTH_CONSENT_PATH}?${new URLSearchParams({ request: sealed, firm: String(firm.tenantId) })}`}
                  aria-current={firm.tenantId === chosen?.tenantId ? "true" : undefined}
                  className={`${secondaryButton} aria-[current=true]:bg-slate-900 aria-[current=true]:text-white`}
                >
                  {firm.tenantName}
                </a>
              </li>
            ))}
          </ul>
        </fieldset>
      )}

      {chosen?.refusal ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          {chosen.refusal}
        </p>
      ) : (
        <>
          <fieldset>
            <legend className="text-sm font-semibold">Access in {chosen?.tenantName}</legend>
            <p className="mt-1 text-sm text-slate-600">
              What the app asked for, within what your role allows and your firm permits. You may give less.
            </p>
            {asked.length === 0 ? (
              <p className="mt-2 text-sm">No access to any records: it can only see who you are.</p>
            ) : (
              <div className="mt-3 space-y-2">
                {asked.map((resource) => (
                  <AccessLevelSelect
                    key={resource}
                    resource={resource}
                    name={`access.${resource}`}
                    most={chosen!.offered[resource]}
                    defaultValue={chosen!.offered[resource]}
                  />
                ))}
              </div>
            )}
          </fieldset>
          <label className="block">
            <span className="text-sm font-semibold">Access ends</span>
            <select name="expires" defaultValue="never" className={`${textInput} mt-1`}>
              {GRANT_EXPIRY_DAYS.map((days) => (
                <option key={String(days)} value={days === null ? "never" : String(days)}>
                  {days === null ? "When I revoke it" : `After ${days} days`}
                </option>
              ))}
            </select>
          </label>
          {offline && (
            <p className="text-sm text-slate-600">
              The app stays connected while you are away, until you revoke it at Settings → Connected apps.
            </p>
          )}
        </>
      )}

      <div className="flex flex-wrap gap-3">
        {!chosen?.refusal && (
          <button type="submit" name="decision" value="allow" className={primaryButton}>
            Allow
          </button>
        )}
        <button type="submit" name="decision" value="deny" className={secondaryButton}>
          Deny
        </button>
      </div>
    </form>
  );
}
