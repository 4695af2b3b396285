// Tenant scoping, in one place: every query through a TenantDb is limited to one tenant. Reads and writes get
// `tenantId` added to their filter, creates get it set, and an update can never move a row to another tenant.
// Relations between tenant tables are composite foreign keys that include tenant_id, so includes and nested
// writes cannot cross tenants either. Raw SQL is the one way around this: it must take the tenant explicitly.
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { readOnReplica, replicaInUse, replicaModelRead } from "./replicas";

const UNSCOPED_MODELS = new Set(["Country"]); // shared reference data

/** The operations that only read: those a replica may answer. */
const READS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
]);

/** The operations whose filter gets the tenant: every read, and the writes that find rows. */
const FILTERED = new Set([...READS, "update", "updateMany", "updateManyAndReturn", "delete", "deleteMany", "upsert"]);

type Args = Record<string, unknown> & { where?: object; data?: unknown; create?: object; update?: object };

/**
 * The client scoped to one tenant. Kept per tenant (the most recent TENANTS_KEPT) rather than extended on every
 * request: an extension costs about 35 µs to make, and a scoped client holds nothing of a request.
 */
export function tenantDb(client: PrismaClient, tenantId: number): TenantDb {
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0) {
    throw new Error("tenantDb needs the caller's tenant id");
  }
  let byTenant = scopedClients.get(client);
  if (!byTenant) scopedClients.set(client, (byTenant = new Map()));
  let scoped = byTenant.get(tenantId);
  if (!scoped) {
    if (byTenant.size >= TENANTS_KEPT) byTenant.delete(byTenant.keys().next().value!);
    scoped = scopedTo(client, tenantId);
  } else byTenant.delete(tenantId); // kept in order of use: the oldest is the first dropped
  byTenant.set(tenantId, scoped);
  return scoped;
}

const TENANTS_KEPT = 1000;
const scopedClients = new WeakMap<PrismaClient, Map<number, TenantDb>>();

function scopedTo(client: PrismaClient, tenantId: number) {
  return client.$extends({
    name: "tenant-scope",
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          if (UNSCOPED_MODELS.has(model)) return query(args);
          const scoped = scopeArgs(model, operation, args as Args, tenantId) as typeof args;
          // In a request that reads from a replica (lib/api/route.ts: GET), its reads go there; writes never do.
          const reads = READS.has(operation) ? replicaInUse() : undefined;
          if (!reads) return query(scoped);
          return readOnReplica(
            reads,
            () => replicaModelRead(reads, model, operation, scoped),
            () => query(scoped),
          );
        },
      },
    },
  });
}

export type TenantDb = ReturnType<typeof scopedTo>;

function scopeArgs(model: string, operation: string, args: Args, tenantId: number): Args {
  const key = model === "Tenant" ? "id" : "tenantId";
  if (model === "Tenant" && operation.startsWith("create")) throw new Error("A tenant cannot create tenants");
  const assertOwnTenant = (value: unknown) => {
    if (value && typeof value === "object" && key in value && (value as Record<string, unknown>)[key] !== tenantId) {
      throw new Error(`${model}.${key} cannot refer to another tenant`);
    }
  };
  const stamp = (data: unknown) => {
    assertOwnTenant(data);
    return model === "Tenant" ? data : { ...(data as object), tenantId };
  };
  const scoped: Args = { ...args };
  if (FILTERED.has(operation)) {
    assertOwnTenant(args.where);
    scoped.where = { ...args.where, [key]: tenantId };
  }
  if (operation === "create") scoped.data = stamp(args.data);
  if (operation === "createMany" || operation === "createManyAndReturn") {
    scoped.data = Array.isArray(args.data) ? args.data.map(stamp) : stamp(args.data);
  }
  if (operation === "upsert") {
    scoped.create = stamp(args.create) as object;
    if (args.update) stamp(args.update);
  }
  if (operation.startsWith("update") && args.data) stamp(args.data);
  return scoped;
}

/** What a query needs to run in one tenant: its scoped client, and its id for the raw statements that name it. */
export interface TenantScope {
  db: TenantDb;
  tenant: { id: number };
}
