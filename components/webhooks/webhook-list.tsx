import { deleteWebhookAction, sendTestAction, setEnabledAction } from "@/app/settings/webhooks/actions";
import type { WebhookWithDeliveries } from "@/lib/webhooks/settings";
import { dangerButton, secondaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { RotateSecretButton } from "./rotate-secret-button";

const REASONS: Record<string, string> = {
  manual: "disabled",
  gone: "disabled: the receiver answered 410 Gone",
  failing: "disabled after failing for 5 days",
};

function when(date: Date | null, timezone: string) {
  return date ? date.toLocaleString("en-GB", { timeZone: timezone, dateStyle: "medium", timeStyle: "medium" }) : "—";
}

/** The firm's endpoints: state, actions, and each one's most recent deliveries with their attempts. */
export function WebhookList({ webhooks, timezone }: { webhooks: WebhookWithDeliveries[]; timezone: string }) {
  if (!webhooks.length) return <p className="text-sm text-slate-600">No webhook endpoints yet.</p>;
  return (
    <ul aria-label="Webhook endpoints" className="space-y-6">
      {webhooks.map(({ endpoint, deliveries }) => (
        <li key={endpoint.uuid} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <h3 className="font-mono text-sm font-semibold break-all">{endpoint.url}</h3>
          {endpoint.description && <p className="mt-1 text-sm text-slate-700">{endpoint.description}</p>}
          <p className="mt-1 text-sm">
            <span className={endpoint.enabled ? "text-green-800" : "font-medium text-red-700"}>
              {endpoint.enabled ? "Enabled" : `Disabled (${REASONS[endpoint.disabledReason ?? "manual"]})`}
            </span>
            <span className="text-slate-600"> · {endpoint.events.join(", ")}</span>
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <form action={sendTestAction}>
              <input type="hidden" name="uuid" value={endpoint.uuid} />
              <SubmitButton label="Send test" pendingLabel="Sending…" className={secondaryButton} />
            </form>
            <form action={setEnabledAction}>
              <input type="hidden" name="uuid" value={endpoint.uuid} />
              <input type="hidden" name="enabled" value={String(!endpoint.enabled)} />
              <SubmitButton
                label={endpoint.enabled ? "Disable" : "Enable"}
                pendingLabel="Saving…"
                className={secondaryButton}
              />
            </form>
            <form action={deleteWebhookAction}>
              <input type="hidden" name="uuid" value={endpoint.uuid} />
              <SubmitButton label="Delete" pendingLabel="Deleting…" className={dangerButton} />
            </form>
            <RotateSecretButton uuid={endpoint.uuid} url={endpoint.url} />
          </div>
          <h4 className="mt-4 text-sm font-semibold">Recent deliveries</h4>
          {deliveries.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">Nothing sent yet.</p>
          ) : (
            <div className="mt-2 overflow-x-auto">
              <table className="w-full text-left text-sm" aria-label={`Recent deliveries to ${endpoint.url}`}>
                <thead className="text-slate-600">
                  <tr>
                    <th className="py-1 pr-3 font-medium">Event</th>
                    <th className="py-1 pr-3 font-medium">Status</th>
                    <th className="py-1 pr-3 font-medium">Response</th>
                    <th className="py-1 pr-3 font-medium">Attempts</th>
                    <th className="py-1 pr-3 font-medium">Last attempt</th>
                    <th className="py-1 font-medium">Next retry</th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.map((d) => (
                    <tr key={d.uuid} className="border-t border-slate-100">
                      <td className="py-1 pr-3 font-mono">{d.event.type}</td>
                      <td className="py-1 pr-3">{d.status}</td>
                      <td className="py-1 pr-3" title={d.error ?? undefined}>
                        {d.responseStatus ?? (d.error ? "no answer" : "—")}
                        {d.durationMs !== null && <span className="text-slate-600"> · {d.durationMs} ms</span>}
                      </td>
                      <td className="py-1 pr-3">
                        {d.attemptHistory.length === 0 ? (
                          d.attempts
                        ) : (
                          <details>
                            <summary className="cursor-pointer">{d.attempts}</summary>
                            <ol aria-label="Attempts, newest first" className="mt-1 space-y-0.5 text-xs">
                              {d.attemptHistory.map((a) => (
                                <li key={a.id}>
                                  {when(a.attemptedAt, timezone)}: {a.responseStatus ?? a.error ?? "no answer"} ·{" "}
                                  {a.durationMs} ms
                                </li>
                              ))}
                            </ol>
                          </details>
                        )}
                      </td>
                      <td className="py-1 pr-3">{when(d.lastAttemptAt, timezone)}</td>
                      <td className="py-1">{d.status === "pending" ? when(d.nextAttemptAt, timezone) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
