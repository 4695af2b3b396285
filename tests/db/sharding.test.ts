// Sharding by tenant stays possible, checked on the migrated schema rather than claimed (docs: README "Deploy"):
// on a distributed PostgreSQL such as Citus, tables distributed by tenant_id need it in every primary and unique key,
// and a foreign key between two of them must join on it. The global tables are reference tables (copied to every
// node), which any table may point to.
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db/client";

/** Tables without a tenant: reference data, the tenants themselves, and the migration record. */
const GLOBAL = ["_prisma_migrations", "countries", "tenants"];
/**
 * Reference tables that have a tenant_id without being one firm's: an OAuth app (oauth_clients) is one row for every
 * firm it connects to (a metadata document's or a registered app's), found by its client_id before any firm is
 * known; a firm's own app names its firm there. Copied to every node like countries.
 */
const REFERENCE = ["countries", "oauth_clients"];

interface Key {
  table: string;
  kind: "primary key" | "unique" | "foreign key";
  name: string;
  /** Whether its columns include tenant_id. */
  hasTenant: boolean;
  /** For a foreign key: the referenced table, and whether tenant_id is matched to the referenced tenant_id. */
  references: string | null;
  joinsOnTenant: boolean | null;
}

async function keys(): Promise<Key[]> {
  return (await prisma()).$queryRawUnsafe<Key[]>(`
    WITH tables AS (
      SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ), tenant_columns AS (
      SELECT attrelid, attnum FROM pg_attribute WHERE attname = 'tenant_id' AND NOT attisdropped
    )
    SELECT t.relname AS "table",
           CASE con.contype WHEN 'p' THEN 'primary key' WHEN 'u' THEN 'unique' ELSE 'foreign key' END AS kind,
           con.conname AS name,
           EXISTS (SELECT 1 FROM tenant_columns tc WHERE tc.attrelid = t.oid AND tc.attnum = ANY (con.conkey)) AS "hasTenant",
           con.confrelid::regclass::text AS "references",
           CASE WHEN con.contype = 'f' THEN EXISTS (
             SELECT 1 FROM unnest(con.conkey, con.confkey) AS k(local, remote)
             JOIN tenant_columns l ON l.attrelid = t.oid AND l.attnum = k.local
             JOIN tenant_columns r ON r.attrelid = con.confrelid AND r.attnum = k.remote
           ) END AS "joinsOnTenant"
    FROM tables t JOIN pg_constraint con ON con.conrelid = t.oid
    WHERE con.contype IN ('p', 'u', 'f')
    UNION ALL
    -- Unique indexes that are not constraints (e.g. partial or expression ones) are unique keys too.
    SELECT t.relname, 'unique', i.indexrelid::regclass::text,
           EXISTS (SELECT 1 FROM tenant_columns tc WHERE tc.attrelid = t.oid AND tc.attnum = ANY (i.indkey::int2[])),
           NULL, NULL
    FROM tables t JOIN pg_index i ON i.indrelid = t.oid
    WHERE i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
    ORDER BY 1, 2, 3`);
}

describe("the schema can be sharded by tenant", () => {
  it("has a tenant_id in every table but the global ones", async () => {
    const tables = await (await prisma()).$queryRawUnsafe<{ name: string; tenant: boolean }[]>(`
      SELECT c.relname AS name,
             EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id') AS tenant
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition`);
    expect(tables.length).toBeGreaterThan(GLOBAL.length);
    expect(
      tables
        .filter((t) => !t.tenant)
        .map((t) => t.name)
        .sort(),
    ).toEqual(GLOBAL);
  });

  it("has the tenant in every primary key, unique key and foreign key of a tenant's table", async () => {
    const all = (await keys()).filter((key) => !GLOBAL.includes(key.table) && !REFERENCE.includes(key.table));
    expect(all.filter((key) => key.kind === "primary key")).not.toHaveLength(0);
    expect(all.filter((key) => key.kind === "foreign key")).not.toHaveLength(0);
    const withoutTenant = all.filter((key) => {
      // A foreign key to reference data needs no tenant; one to the tenants table is the tenant_id itself.
      if (key.references !== null && REFERENCE.includes(key.references)) return false;
      if (key.references === "tenants") return !key.hasTenant;
      return !key.hasTenant || key.joinsOnTenant === false;
    });
    expect(withoutTenant).toEqual([]);
  });
});
