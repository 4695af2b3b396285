import { revokeFirmTokenAction } from "@/app/settings/api-tokens/actions";
import type { FirmTokenSummary, TokenSummary } from "@/lib/tokens";
import { accessSummary } from "@/lib/tokens/access";
import { Time } from "../time";
import { DeleteTokenButton } from "./delete-token-button";
import { RequestLog } from "./request-log";

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Expires in 12 days", "Expired" or "Never expires", as of `now`. */
export function expiryText(expiresAt: Date | null, now = Date.now()): string {
  if (!expiresAt) return "Never expires";
  const days = Math.ceil((expiresAt.getTime() - now) / DAY_MS);
  if (days <= 0) return "Expired";
  return `Expires in ${days} day${days === 1 ? "" : "s"}`;
}

/**
 * Tokens: name, access, created, expiry, last use (when, from where, with what), last four characters; never a
 * value. Times in the person's zone, named. The person's own, each with Delete; or, with `firm`, everyone's in the
 * firm with the person too, each with Revoke.
 */
export function TokenList({
  tokens,
  timezone,
  firm = false,
}: {
  tokens: (TokenSummary | FirmTokenSummary)[];
  timezone: string;
  firm?: boolean;
}) {
  if (tokens.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
        {firm
          ? "Nobody in the firm has an API token."
          : "You have no API tokens yet. Create one above to call the API from a script or another tool."}
      </p>
    );
  }
  const when = (date: Date) => <Time value={date} timezone={timezone} />;
  return (
    <ul
      aria-label={firm ? "Firm tokens" : "Your tokens"}
      className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      {tokens.map((token) => {
        const expiry = expiryText(token.expiresAt);
        const person = "user" in token ? `${token.user.firstname} ${token.user.lastname}` : null;
        return (
          // Two columns, whatever the row's text: the button keeps its place from row to row.
          <li key={token.id} className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-4 p-4">
            <div className="min-w-0">
              <h3 className="font-medium break-words">
                {token.name}
                {expiry === "Expired" && (
                  <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs font-medium text-slate-700">
                    Expired
                  </span>
                )}
              </h3>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-600">
                {"user" in token && (
                  <>
                    <dt>Person</dt>
                    <dd className="break-words">
                      {person} <span className="text-slate-500">({token.user.email})</span>
                    </dd>
                  </>
                )}
                <dt>Access</dt>
                <dd className="break-words">{accessSummary(token.access)}</dd>
                <dt>Last characters</dt>
                <dd>
                  <code
                    className="font-mono text-slate-900"
                    aria-label={`ends with ${token.lastFour.split("").join(" ")}`}
                  >
                    …{token.lastFour}
                  </code>
                </dd>
                <dt>Created</dt>
                <dd>{when(token.createdAt)}</dd>
                <dt>Expires</dt>
                <dd>
                  {expiry}
                  {token.expiresAt && <> ({when(token.expiresAt)})</>}
                </dd>
                <dt>Last used</dt>
                <dd className="break-words">
                  {token.lastUsedAt ? when(token.lastUsedAt) : "never"}
                  {token.lastUsedAddress && <> from {token.lastUsedAddress}</>}
                  {token.lastUsedUserAgent && (
                    <span className="block text-slate-500" title={token.lastUsedUserAgent}>
                      {token.lastUsedUserAgent}
                    </span>
                  )}
                </dd>
              </dl>
              <RequestLog tokenId={token.id} tokenName={token.name} timezone={timezone} />
            </div>
            {person ? (
              <DeleteTokenButton
                id={token.id}
                name={`${person}'s token ${token.name}`}
                action={revokeFirmTokenAction}
                verb="Revoke"
                title={`Revoke ${person}'s token “${token.name}”?`}
                focusAfter="firm-tokens-heading"
              />
            ) : (
              <DeleteTokenButton id={token.id} name={token.name} />
            )}
          </li>
        );
      })}
    </ul>
  );
}
