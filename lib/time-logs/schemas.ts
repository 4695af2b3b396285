// Input of the time logs list.
import { z } from "zod";
import { paginationQuery } from "@/lib/api/pagination";
import { queryDateRange } from "@/lib/api/date-ranges";
import { queryId, uuidString } from "@/lib/api/references";
import { queryList } from "@/lib/api/validation";

// As for jobs: ids and uuids the tenant does not have match nothing rather than being an error.
export const timeLogListQuery = z.object({
  range: queryDateRange().optional().describe("Date range of the logs' dates"),
  client_uuid: uuidString().optional().describe("Only time logged for this client"),
  tasks: queryList(uuidString()).optional().describe("Only time logged against these jobs (uuids)"),
  users: queryList(queryId()).optional().describe("Only time of these user ids"),
  search: z.string().max(200).optional().describe("Case-insensitive substring of the note"),
  ...paginationQuery,
});

export type TimeLogListQuery = z.output<typeof timeLogListQuery>;
