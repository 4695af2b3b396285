"use client";
// One token's recent requests (7 days, newest first), for the integrator whose sync failed at 3 a.m.: time, method,
// path, status, duration, request id, and for a 4xx the message and field errors the caller got. Loaded when opened,
// and again when the status filter changes.
import { useEffect, useState, useTransition } from "react";
import { loadTokenRequests } from "@/app/settings/api-tokens/request-log-actions";
import type { TokenRequestWire } from "@/lib/request-log/schemas";
import { Time } from "../time";

const FILTERS = [
  ["", "All requests"],
  ["2xx", "Successes (2xx)"],
  ["error", "Failures (4xx and 5xx)"],
  ["4xx", "Client errors (4xx)"],
  ["5xx", "Server errors (5xx)"],
] as const;

type Loaded = { requests: TokenRequestWire[]; total: number } | null;

export function RequestLog({ tokenId, tokenName, timezone }: { tokenId: number; tokenName: string; timezone: string }) {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState("");
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const [pending, startTransition] = useTransition();

  useEffect(() => {
    if (!open) return;
    startTransition(async () => setLoaded(await loadTokenRequests(tokenId, filter)));
  }, [open, filter, tokenId]);

  return (
    <details className="mt-3 text-sm" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer font-medium text-slate-700">Recent requests</summary>
      <div className="mt-2">
        <label className="inline-flex items-center gap-2 text-slate-600">
          Show
          <select
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            className="rounded border border-slate-300 bg-white px-2 py-1"
          >
            {FILTERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <div aria-live="polite" aria-busy={pending} className="mt-2">
          {loaded === undefined ? (
            <p className="text-slate-500">Loading…</p>
          ) : loaded === null ? (
            <p className="text-slate-500">These requests cannot be shown.</p>
          ) : loaded.requests.length === 0 ? (
            <p className="text-slate-500">No requests in the last 7 days{filter ? " match this filter" : ""}.</p>
          ) : (
            <div className="overflow-x-auto">
              <table aria-label={`Recent requests of ${tokenName}`} className="min-w-full text-left">
                <thead className="text-xs text-slate-500">
                  <tr>
                    <th className="pr-3 font-medium">Time</th>
                    <th className="pr-3 font-medium">Request</th>
                    <th className="pr-3 font-medium">Status</th>
                    <th className="pr-3 font-medium">Duration</th>
                    <th className="pr-3 font-medium">Request id</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {loaded.requests.map((request) => (
                    <tr key={request.id} className="align-top">
                      <td className="pr-3 whitespace-nowrap">
                        <Time value={request.created_at} timezone={timezone} seconds />
                      </td>
                      <td className="pr-3 break-all">
                        <code>
                          {request.method} {request.path}
                        </code>
                        {request.message && <p className="text-slate-700">{request.message}</p>}
                        {request.errors && (
                          <ul className="list-disc pl-5 text-slate-700">
                            {Object.entries(request.errors).map(([field, messages]) => (
                              <li key={field}>
                                <code>{field}</code>: {messages.join(" ")}
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                      <td className={`pr-3 font-medium ${request.status >= 400 ? "text-red-700" : "text-green-700"}`}>
                        {request.status}
                      </td>
                      <td className="pr-3 whitespace-nowrap">{request.duration_ms} ms</td>
                      <td className="pr-3">
                        <code className="text-xs">{request.request_id}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {loaded.total > loaded.requests.length && (
                <p className="mt-1 text-xs text-slate-500">
                  The latest {loaded.requests.length} of {loaded.total}.
                </p>
              )}
            </div>
          )}
        </div>
      </div>
    </details>
  );
}
