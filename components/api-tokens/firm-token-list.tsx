import { revokeFirmTokenAction } from "@/app/settings/api-tokens/actions";
import type { FirmTokenSummary } from "@/lib/tokens";
import { DeleteTokenButton } from "./delete-token-button";
import { expiryText, SCOPE_LABELS } from "./token-list";

/** Every token of the firm, for Owners and Admins: user, name, scope, created, last used, expiry; each revocable. */
export function FirmTokenList({ tokens, timezone }: { tokens: FirmTokenSummary[]; timezone: string }) {
  if (tokens.length === 0) return <p className="text-sm text-slate-600">Nobody in the firm has an API token.</p>;
  const format = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: timezone });
  const when = (date: Date | null) =>
    date ? <time dateTime={date.toISOString()}>{format.format(date)}</time> : "never";
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Every API token in the firm</caption>
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            {["Person", "Name", "Access", "Created", "Last used", "Expires", ""].map((heading) => (
              <th key={heading} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {heading || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {tokens.map((token) => {
            const person = `${token.user.firstname} ${token.user.lastname}`;
            return (
              <tr key={token.id}>
                <td className="px-3 py-2">
                  <div className="font-medium">{person}</div>
                  <div className="text-slate-600">{token.user.email}</div>
                </td>
                <td className="px-3 py-2 break-words">
                  {token.name} <code className="font-mono text-slate-600">…{token.lastFour}</code>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{SCOPE_LABELS[token.scope]}</td>
                <td className="px-3 py-2 whitespace-nowrap">{when(token.createdAt)}</td>
                <td className="px-3 py-2 whitespace-nowrap">{when(token.lastUsedAt)}</td>
                <td className="px-3 py-2 whitespace-nowrap">{expiryText(token.expiresAt)}</td>
                <td className="px-3 py-2 text-right">
                  <DeleteTokenButton
                    id={token.id}
                    name={`${person}'s token ${token.name}`}
                    action={revokeFirmTokenAction}
                    verb="Revoke"
                    title={`Revoke ${person}'s token “${token.name}”?`}
                    focusAfter="firm-tokens-heading"
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
