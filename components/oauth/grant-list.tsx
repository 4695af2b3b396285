// The grants of the connected-apps page: the person's own (lower access, revoke, recent requests) or the firm's
// (revoke). Laid out as the tokens page lays out tokens.
import { lowerGrantAction, revokeFirmGrantAction, revokeOwnGrantAction } from "@/app/settings/connected-apps/actions";
import { RequestLog } from "@/components/api-tokens/request-log";
import { expiryText } from "@/components/api-tokens/token-list";
import { ConfirmButton } from "@/components/confirm-button";
import { secondaryButton } from "@/components/styles";
import { Time } from "@/components/time";
import type { GrantSummary } from "@/lib/oauth/grants";
import { accessSummary, TOKEN_RESOURCES } from "@/lib/tokens/access";
import { AccessLevelSelect } from "./access-level-select";

const RESOURCE_WORDS = { api: "REST API", mcp: "Assistant (MCP)" } as Record<string, string>;

export function GrantList({
  grants,
  timezone,
  firm = false,
}: {
  grants: GrantSummary[];
  timezone: string;
  firm?: boolean;
}) {
  if (grants.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
        {firm ? "Nobody in the firm has connected an app." : "You have not connected any app."}
      </p>
    );
  const when = (date: Date) => <Time value={date} timezone={timezone} />;
  return (
    <ul
      aria-label={firm ? "Firm’s connected apps" : "Your apps"}
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      {grants.map((grant) => {
        const person = `${grant.user.firstname} ${grant.user.lastname}`;
        return (
          <li key={grant.id} className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-4 p-4">
            <div className="min-w-0">
              <h3 className="font-medium break-words">{grant.appName}</h3>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-600">
                {firm && (
                  <>
                    <dt>Person</dt>
                    <dd className="break-words">
                      {person} <span className="text-slate-500">({grant.user.email})</span>
                    </dd>
                  </>
                )}
                <dt>Uses</dt>
                <dd>{RESOURCE_WORDS[grant.audience] ?? grant.audience}</dd>
                <dt>Access</dt>
                <dd className="break-words">{accessSummary(grant.access)}</dd>
                <dt>Returns to</dt>
                <dd className="break-all">{new URL(grant.redirectUri).host}</dd>
                <dt>Connected</dt>
                <dd>{when(grant.createdAt)}</dd>
                <dt>Expires</dt>
                <dd>{expiryText(grant.expiresAt)}</dd>
                <dt>Last used</dt>
                <dd className="break-words">
                  {grant.lastUsedAt ? when(grant.lastUsedAt) : "never"}
                  {grant.lastUsedAddress && <> from {grant.lastUsedAddress}</>}
                </dd>
              </dl>
              {!firm && (
                <>
                  <details className="mt-2">
                    <summary className="cursor-pointer text-sm font-medium text-slate-800">Lower its access</summary>
                    <form action={lowerGrantAction} className="mt-2 space-y-2">
                      <input type="hidden" name="id" value={grant.id} />
                      {TOKEN_RESOURCES.map((resource) => (
                        <AccessLevelSelect
                          key={resource}
                          resource={resource}
                          name={`access.${resource}`}
                          most={grant.access[resource]}
                          defaultValue={grant.access[resource]}
                        />
                      ))}
                      <button type="submit" className={secondaryButton}>
                        Save lower access
                      </button>
                    </form>
                  </details>
                  <RequestLog tokenId={grant.id} tokenName={grant.appName} timezone={timezone} />
                </>
              )}
            </div>
            <ConfirmButton
              label="Revoke"
              accessibleLabel={firm ? `Revoke ${person}'s app ${grant.appName}` : `Revoke ${grant.appName}`}
              title={`Revoke ${grant.appName}?`}
              confirmLabel="Revoke"
              pendingLabel="Revoking…"
              fields={{ id: String(grant.id) }}
              action={firm ? revokeFirmGrantAction : revokeOwnGrantAction}
            >
              {grant.appName} stops working at once{firm ? ` for ${person}` : ""}. Connecting it again asks for consent
              again.
            </ConfirmButton>
          </li>
        );
      })}
    </ul>
  );
}
