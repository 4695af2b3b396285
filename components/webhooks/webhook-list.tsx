import { sendTestAction, setEnabledAction } from "@/app/settings/webhooks/actions";
import type { WebhookWithDeliveries } from "@/lib/webhooks/settings";
import { ScrollRegion } from "../scroll-region";
import { secondaryButton } from "../styles";
import { SubmitButton } from "../submit-button";
import { Time } from "../time";
import { DeleteWebhookButton } from "./delete-webhook-button";
import { RotateSecretButton } from "./rotate-secret-button";

/** An endpoint's state as a person reads it: why it is disabled when the service disabled it. */
const STATES: Record<string, string> = {
  manual: "Disabled",
  gone: "Disabled: the receiver answered 410 Gone",
  failing: "Disabled after failing for 5 days",
};

type Delivery = WebhookWithDeliveries["deliveries"][number];

/** A delivery's state: sent, waiting for its first try, waiting to try again, or given up. */
function deliveryState(d: Delivery) {
  if (d.status === "succeeded") return "Delivered";
  if (d.status === "failed") return "Failed";
  return d.attempts === 0 ? "Queued" : "Will retry";
}

/** What the receiver answered to an attempt, or why there was no answer (the reason the service knows). */
function answer(a: { responseStatus: number | null; error: string | null }) {
  if (a.responseStatus !== null) return `HTTP ${a.responseStatus}`;
  return a.error ? `No answer: ${a.error}` : null;
}

function when(date: Date | null, timezone: string) {
  return date ? <Time value={date} timezone={timezone} seconds /> : "—";
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
              {endpoint.enabled ? "Enabled" : STATES[endpoint.disabledReason ?? "manual"]}
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
            <DeleteWebhookButton uuid={endpoint.uuid} url={endpoint.url} />
            <RotateSecretButton uuid={endpoint.uuid} url={endpoint.url} />
          </div>
          <h4 className="mt-4 text-sm font-semibold">Recent deliveries</h4>
          {deliveries.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">Nothing sent yet.</p>
          ) : (
            <ScrollRegion label="Deliveries, scrolling sideways when the columns do not fit">
              <table
                className="w-full min-w-[40rem] text-left text-sm"
                aria-label={`Recent deliveries to ${endpoint.url}`}
              >
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
                      <td className="py-1 pr-3">{deliveryState(d)}</td>
                      <td className="max-w-64 py-1 pr-3 break-words">
                        {answer(d) ?? "—"}
                        {d.attempts > 0 && d.durationMs !== null && (
                          <span className="text-slate-600"> after {d.durationMs} ms</span>
                        )}
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
                                  {when(a.attemptedAt, timezone)}: {answer(a) ?? "no answer"} after {a.durationMs} ms
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
            </ScrollRegion>
          )}
        </li>
      ))}
    </ul>
  );
}
