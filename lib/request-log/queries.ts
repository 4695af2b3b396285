// Reading a token's request log, newest first, within one firm (every read goes through the tenant-scoped
// database). Who may read which token's log is the caller's business: the API reads its own token's, the settings
// page checks the person's right to see the token first (lib/tokens/settings.ts).
import type { ListPage } from "@/lib/core/pagination";
import { pageOf } from "@/lib/core/pagination";
import type { TenantScope } from "@/lib/db/tenant";
import type { Prisma, TokenRequest } from "@/lib/generated/prisma/client";
import { RETENTION_DAYS } from "./buffer";
import type { ListTokenRequestsQuery, StatusClass, TokenRequestWire } from "./schemas";

const DEFAULT_PAGE_SIZE = 50;
const DAY_MS = 24 * 60 * 60_000;

function statusWhere(statusClass: StatusClass | undefined): Prisma.TokenRequestWhereInput {
  if (!statusClass) return {};
  if (statusClass === "error") return { status: { gte: 400 } };
  const first = Number(statusClass[0]) * 100;
  return { status: { gte: first, lt: first + 100 } };
}

/** One page of the token's requests of the last 7 days that match the filter, newest first. */
export async function listTokenRequests(
  reader: TenantScope,
  tokenId: number,
  query: Pick<ListTokenRequestsQuery, "page" | "limit" | "per_page" | "status_class">,
): Promise<ListPage<TokenRequest>> {
  const page = pageOf(query, DEFAULT_PAGE_SIZE);
  const where: Prisma.TokenRequestWhereInput = {
    tokenId,
    // Entries past retention not yet pruned are not shown.
    createdAt: { gte: new Date(Date.now() - RETENTION_DAYS * DAY_MS) },
    ...statusWhere(query.status_class),
  };
  const [total, rows] = await Promise.all([
    reader.db.tokenRequest.count({ where }),
    reader.db.tokenRequest.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.take,
    }),
  ]);
  return { page, total, rows };
}

export const serializeTokenRequest = (row: TokenRequest): TokenRequestWire => ({
  id: Number(row.id),
  created_at: row.createdAt.toISOString(),
  request_id: row.requestId,
  method: row.method,
  path: row.path,
  status: row.status,
  duration_ms: row.durationMs,
  message: row.message,
  errors: (row.errors as Record<string, string[]> | null) ?? null,
});
