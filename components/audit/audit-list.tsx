import Link from "next/link";
import { type AuditEventOutput, type AuditNames, changeValueText, describeAuditEvent } from "@/lib/audit/serialize";
import { AUDIT_PATH } from "@/lib/paths";
import { focusRing } from "../styles";
import { Time } from "../time";

const VIA: Record<AuditEventOutput["via"], string> = {
  api: "API",
  oauth: "a connected app",
  mcp: "an assistant (MCP)",
  web: "web",
  cli: "command line",
  system: "the app",
};

/** An ISO date and time in a change (a token's expiry): shown as the entry's own time is. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function change(field: string, value: unknown, names: AuditNames, timezone: string) {
  if (value === null || value === "") return "—";
  if (typeof value === "string" && ISO_TIME.test(value)) return <Time value={value} timezone={timezone} />;
  return changeValueText(field, value, names);
}

/** The entries as sentences, newest first, each with when, how, from where, and its changes field by field. */
export function AuditList({
  events,
  names,
  timezone,
}: {
  events: AuditEventOutput[];
  names: AuditNames;
  timezone: string;
}) {
  if (!events.length) return <p className="text-sm text-slate-600">No entries match.</p>;
  return (
    <ol aria-label="Audit log entries" className="space-y-3">
      {events.map((event) => (
        <li key={event.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <p className="text-sm text-slate-900">{describeAuditEvent(event, names)}</p>
          <p className="mt-1 text-xs text-slate-600">
            <Time value={event.created_at} timezone={timezone} seconds /> · {event.action} · via {VIA[event.via]}
            {event.address && ` · from ${event.address}`}
            {event.target.uuid && (
              <>
                {" · "}
                <Link
                  href={`${AUDIT_PATH}?target_uuid=${event.target.uuid}`}
                  className={`rounded underline hover:text-slate-900 ${focusRing}`}
                >
                  Everything about {event.target.name}
                </Link>
              </>
            )}
          </p>
          {Object.keys(event.changes).length > 0 && (
            <table className="mt-2 text-left text-xs" aria-label="Changes">
              <thead className="text-slate-600">
                <tr>
                  <th className="py-0.5 pr-3 font-medium">Field</th>
                  <th className="py-0.5 pr-3 font-medium">Before</th>
                  <th className="py-0.5 font-medium">After</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(event.changes).map(([field, values]) => (
                  <tr key={field}>
                    <td className="py-0.5 pr-3 font-mono">{field}</td>
                    <td className="py-0.5 pr-3 break-all">
                      {values === "changed" ? "—" : change(field, values[0], names, timezone)}
                    </td>
                    <td className="py-0.5 break-all">
                      {values === "changed" ? "(changed)" : change(field, values[1], names, timezone)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </li>
      ))}
    </ol>
  );
}
