// The client status state table of the spec: a new client is `active` unless created as `prospect`; a PUT may set
// either value; accepting a proposal moves a prospect to active. Proposals have no endpoint in v1: this is the
// domain operation that the proposals feature calls.
import type { TenantDb } from "@/lib/db/tenant";

/** Moves a prospect to active. Returns whether it changed anything (an active client stays as it is). */
export async function acceptProposal(db: TenantDb, clientId: number): Promise<boolean> {
  const { count } = await db.client.updateMany({
    where: { id: clientId, clientStatus: "prospect" },
    data: { clientStatus: "active" },
  });
  return count > 0;
}
