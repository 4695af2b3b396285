// Input of the time logs list.
import { z } from "zod";
import { queryDateRange } from "@/lib/core/date-ranges";
import { dateOutput, updatedAtOutput } from "@/lib/core/dates";
import { component } from "@/lib/core/openapi-registry";
import { cursorQuery, paginationQuery, updatedSinceQuery } from "@/lib/core/pagination";
import { orIdentifier, queryId, uuidString } from "@/lib/core/references";
import { queryList, text } from "@/lib/core/validation";

// As for jobs: ids and uuids the tenant does not have match nothing rather than being an error.
export const listTimeLogsQuery = z.object({
  range: queryDateRange().optional().describe("Date range of the logs' dates"),
  client_uuid: uuidString().optional().describe("Only time logged for this client"),
  tasks: queryList(uuidString()).optional().describe("Only time logged against these jobs (uuids)"),
  users: queryList(queryId()).optional().describe("Only time of these user ids"),
  search: text(200).optional().describe("Case-insensitive substring of the note"),
  sort_by: z
    .enum(["date", "updated_at"])
    .default("date")
    .describe("date: newest first; updated_at: oldest change first. Ties by uuid"),
  ...updatedSinceQuery,
  ...cursorQuery,
  ...paginationQuery,
});

export type ListTimeLogsQuery = z.output<typeof listTimeLogsQuery>;

const ref = z.object({ uuid: z.uuid(), name: z.string() });

export const timeLogObject = component(
  z.object({
    uuid: z.uuid(),
    client: orIdentifier(ref, "uuid", "clients").nullable(),
    task: orIdentifier(ref, "uuid", "jobs").nullable().describe("The job the time was logged against"),
    user: orIdentifier(z.object({ id: z.number().int(), fullname: z.string() }), "id", "users"),
    note: z.string(),
    hours: z.number().describe("Rounded to two decimals"),
    hours_time: z
      .string()
      .regex(/^\d{2,}:\d{2}$/)
      .describe("HH:MM"),
    date: dateOutput(),
    formatted_date: z.string().describe("e.g. 21 Nov 2026"),
    created_at: z.iso.datetime(),
    updated_at: updatedAtOutput(),
  }),
  "TimeLog",
  {
    uuid: "c3a9e1f7-8d24-4b6e-9f05-2e7a1d3b5c69",
    client: { uuid: "0f6c2d7e-6b1a-4c55-9d1e-3a7b2f9c8e41", name: "Harbour Bakery Ltd" },
    task: { uuid: "9b7e4c21-3f58-4d0a-a6e2-1c8d5f7b9e30", name: "Year-end accounts 2026" },
    user: { id: 3, fullname: "Sam Standard" },
    note: "Bank reconciliation, November",
    hours: 1.75,
    hours_time: "01:45",
    date: "2026-11-20",
    formatted_date: "20 Nov 2026",
    created_at: "2026-11-20T17:05:12.331Z",
    updated_at: "2026-11-20T17:05:12.331Z",
  },
);
