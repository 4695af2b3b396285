// Writing the audit log. An entry is written by the transaction of the change it records (an interactive one's
// client, or as one more statement of a batch), so the two commit or roll back together: never a change without its
// entry, nor an entry without its change. One INSERT per call, however many entries: the actor's name and email are
// copied in by that statement (and the token's name from the caller), so an entry keeps them after a rename or a
// deletion.
import type { Caller } from "@/lib/auth/caller";
import { clientAddress } from "@/lib/client-address";
import { prisma } from "@/lib/db/client";
import { writeFence } from "@/lib/db/idempotency";
import { Prisma } from "@/lib/generated/prisma/client";
import type { AuditAction, AuditTarget, Changes, Via } from "./schemas";

/** Who acts, and how: a user (null for the operator's command line) through the API, the web pages or the CLI. */
export interface Actor {
  tenantId: number;
  via: Via;
  /** The MCP tool that acted, when via is mcp. */
  tool?: string;
  userId: number | null;
  tokenId: number | null;
  tokenName: string | null;
  address: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  target: AuditTarget;
  changes?: Changes;
}

/** What can run the INSERT: a transaction's client (interactive or not), tenant-scoped or not. */
interface Writer {
  $executeRaw(query: Prisma.Sql): Prisma.PrismaPromise<number>;
}

/** An API caller: its user and token (an app's token names the app: its grant's row is named after it). */
export function apiActor(caller: Caller): Actor {
  return {
    tenantId: caller.tenant.id,
    via: caller.channel?.via ?? (caller.app ? "oauth" : "api"),
    tool: caller.channel?.tool,
    userId: caller.user.id,
    tokenId: caller.tokenId,
    tokenName: caller.tokenName,
    address: caller.address,
  };
}

/** The signed-in person on a web page (a server action), with the client's address where a trusted proxy tells it. */
export async function webActor(user: { tenantId: number; userId: number }): Promise<Actor> {
  const address = await requestAddress();
  return { tenantId: user.tenantId, via: "web", userId: user.userId, tokenId: null, tokenName: null, address };
}

async function requestAddress(): Promise<string | null> {
  try {
    const { headers } = await import("next/headers");
    return clientAddress(await headers());
  } catch {
    return null; // outside a request (tests call the mutations directly)
  }
}

/** The operator's command line, acting on a firm. */
export const cliActor = (tenantId: number): Actor => ({
  tenantId,
  via: "cli",
  userId: null,
  tokenId: null,
  tokenName: null,
  address: null,
});

/** The app itself, acting on a firm's records (the webhook delivery runner disabling an endpoint). */
export const systemActor = (tenantId: number): Actor => ({ ...cliActor(tenantId), via: "system" });

/** Who acts: an API caller, or anything that already says (a web page's person, the command line). */
export type Acting = Caller | { actor: Actor };

export const actorOf = (acting: Acting): Actor => ("actor" in acting ? acting.actor : apiActor(acting));

/**
 * The statement that records `entries` done by `acting`: await it inside an interactive transaction, or put it in a
 * batch (`db.$transaction([...])`). Not run until then.
 */
export function recordAudit(db: Writer, acting: Acting, ...entries: AuditEntry[]): Prisma.PrismaPromise<number> {
  const { tenantId, via, tool, userId, tokenId, tokenName, address } = actorOf(acting);
  // The tool rides in the via column (`mcp:create_client`), so the append-only table needs no new column.
  const viaColumn = tool ? `${via}:${tool}` : via;
  const rows = entries.map(
    ({ action, target, changes }) =>
      Prisma.sql`(${action}, ${target.type}, ${target.uuid ?? null}::uuid, ${target.id ?? null}::int,
        ${target.name}, ${JSON.stringify(changes ?? {})}::jsonb)`,
  );
  // An API write's transaction always records its entries: that statement also fences the request's
  // Idempotency-Key (lib/db/idempotency.ts), so a request whose key a retry took over writes nothing.
  const fence = writeFence(tenantId, tokenId);
  return db.$executeRaw(Prisma.sql`${fence.with}
    INSERT INTO audit_events (tenant_id, action, via, actor_id, actor_name, actor_email, token_id, token_name,
                              target_type, target_uuid, target_id, target_name, changes, address)
    SELECT ${tenantId}, e.action, ${viaColumn}, ${userId}::int, trim(u.firstname || ' ' || u.lastname), u.email::text,
           ${tokenId}::int, ${tokenName},
           e.target_type, e.target_uuid, e.target_id, e.target_name, e.changes, ${address}
    FROM (VALUES ${Prisma.join(rows)}) AS e (action, target_type, target_uuid, target_id, target_name, changes)
    LEFT JOIN users u ON u.tenant_id = ${tenantId} AND u.id = ${userId}::int
    ${fence.where}`);
}

/** What a change did, and the entries that record it: none only when it changed nothing (e.g. it lost a race). */
export interface Audited<R> {
  result: R;
  entries: AuditEntry[];
}

/** A client that runs interactive transactions (tenant-scoped or not). */
interface Transactional<Tx extends Writer> {
  $transaction<R>(work: (tx: Tx) => Promise<R>): Promise<R>;
}

/**
 * Writes a change and its audit entries in one transaction: `change` makes the writes and answers what it did with the
 * entries that record it, so a change cannot be written here without saying what its entries are.
 */
export async function auditedChange<Tx extends Writer, R>(
  db: Transactional<Tx>,
  acting: Acting,
  change: (tx: Tx) => Promise<Audited<R>>,
): Promise<R> {
  return db.$transaction(async (tx) => {
    const { result, entries } = await change(tx);
    if (entries.length) await recordAudit(tx, acting, ...entries);
    return result;
  });
}

/** How long entries are kept: AUDIT_RETENTION_DAYS, 400 days by default. */
export function auditRetentionDays(env: Record<string, string | undefined> = process.env): number {
  const days = Number(env.AUDIT_RETENTION_DAYS || 400);
  if (!Number.isInteger(days) || days < 1) throw new Error("AUDIT_RETENTION_DAYS must be a whole number of days, ≥ 1.");
  return days;
}

/** Deletes the entries older than the retention, through the one function the table's trigger lets delete. */
export async function pruneAuditEvents(days = auditRetentionDays()): Promise<number> {
  const db = await prisma();
  const [{ pruned }] = await db.$queryRaw<{ pruned: number }[]>`SELECT prune_audit_events(${days}::int) AS pruned`;
  return pruned;
}
