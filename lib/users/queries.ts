// Reading users of the caller's tenant, written as wire JSON by PostgreSQL (lib/db/json-rows.ts). Users are few per
// tenant, so the list is not paginated.
import type { Caller } from "@/lib/auth/caller";
import { forbidden, notFound } from "@/lib/core/errors";
import { prisma } from "@/lib/db/client";
import { containsSql, sqlConditions, updatedSinceSql } from "@/lib/db/filters";
import { findWireRecord } from "@/lib/db/json-rows";
import { type SqlOrder, wireAll } from "@/lib/db/wire-list";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ListUsersQuery } from "./schemas";
import { userWire } from "./wire";

const USER_ORDERS: Record<ListUsersQuery["sort_by"], SqlOrder> = {
  name: [
    { sql: "t.firstname", direction: "asc", kind: "text" },
    { sql: "t.lastname", direction: "asc", kind: "text" },
    { sql: "t.id", direction: "asc", kind: "int" },
  ],
  updated_at: [
    { sql: "t.updated_at", direction: "asc", kind: "timestamptz" },
    { sql: "t.id", direction: "asc", kind: "int" },
  ],
};

/** The JSON text of the users' array. Every word of the search must match the first name, last name or email ("olivia own" finds Olivia Owner). */
export function listUsersJson(caller: Caller, { search, sort_by, updated_since }: ListUsersQuery): Promise<string> {
  const words = (search ?? "").split(/\s+/).filter(Boolean);
  const matches = (word: string) =>
    Prisma.sql`(${Prisma.join(
      ["t.firstname", "t.lastname", "t.email"].map((column) => containsSql(column, word)),
      " OR ",
    )})`;
  return wireAll(caller, {
    table: "users",
    where: sqlConditions([...words.map(matches), updatedSinceSql(updated_since)]),
    order: USER_ORDERS[sort_by],
    object: userWire(),
  });
}

/** The JSON text of the user with this email (citext: equality ignores case), or null. */
export function userByEmailJson(caller: Caller, email: string): Promise<string | null> {
  return findWireRecord(caller, "users", Prisma.sql`t.email = ${email}::citext`, userWire());
}

/** The user with this id in the caller's tenant, as JSON text; 403 when only another tenant has it, 404 when nobody does. */
export async function userJson(caller: Caller, id: number): Promise<string> {
  const json = await findWireRecord(caller, "users", Prisma.sql`t.id = ${id}`, userWire());
  if (json !== null) return json;
  // The one lookup across tenants, like missingRecord for uuids: it reveals only that the id exists.
  const elsewhere = await (await prisma()).user.count({ where: { id } });
  throw elsewhere > 0 ? forbidden() : notFound("User");
}
