// A token's request log on the tokens page: the person's own tokens, and every token of the firm for a role with
// `tokens.manage_all` (Owners and Admins). The token is looked up in the person's own firm, so an id of another
// firm's token finds nothing; the role is read afresh on every call.
import { loadPermissions } from "@/lib/auth/permissions";
import { prisma } from "@/lib/db/client";
import { tenantDb } from "@/lib/db/tenant";
import { listTokenRequests, serializeTokenRequest } from "./queries";
import type { StatusClass, TokenRequestWire } from "./schemas";

type SignedIn = { tenantId: number; userId: number };

/** How many of a token's latest requests the page shows. */
const SHOWN = 50;

/** The token's latest requests (at most 50, newest first) that match the filter, or null if the person may not see them. */
export async function tokenRequestsForPage(
  user: SignedIn,
  tokenId: number,
  statusClass?: StatusClass,
): Promise<{ requests: TokenRequestWire[]; total: number } | null> {
  const client = await prisma();
  const db = tenantDb(client, user.tenantId);
  const token = await db.apiToken.findFirst({ where: { id: tokenId }, select: { userId: true } });
  if (!token) return null;
  if (token.userId !== user.userId && !(await loadPermissions(client, user)).has("tokens.manage_all")) return null;
  const page = await listTokenRequests({ db, tenant: { id: user.tenantId } }, tokenId, {
    per_page: SHOWN,
    status_class: statusClass,
  });
  return { requests: page.rows.map(serializeTokenRequest), total: page.total };
}
