import { paginated } from "@/lib/api/pagination";
import { apiRoute } from "@/lib/api/route";
import { parseInput, queryObject } from "@/lib/api/validation";
import { listTimeLogs } from "@/lib/time-logs/queries";
import { timeLogListQuery } from "@/lib/time-logs/schemas";
import { serializeTimeLog } from "@/lib/time-logs/serialize";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute({
  GET: async ({ url, caller }) => {
    const query = parseInput(timeLogListQuery, queryObject(url.searchParams));
    const { page, total, rows } = await listTimeLogs(caller, query);
    return paginated(url, page, total, rows.map(serializeTimeLog));
  },
});
