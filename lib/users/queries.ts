// Reading users of the caller's tenant. Users are few per tenant, so the list is not paginated.

import { forbidden, notFound } from "@/lib/api/errors";
import { containsText } from "@/lib/api/filters";
import { prisma } from "@/lib/db/client";
import type { TenantDb } from "@/lib/db/tenant";
import type { Prisma } from "@/lib/generated/prisma/client";

const withRole = { role: { select: { name: true } } } satisfies Prisma.UserInclude;

/** Every word of the search must match the first name, last name or email ("olivia own" finds Olivia Owner). */
export function listUsers(db: TenantDb, search: string | undefined) {
  const words = (search ?? "").split(/\s+/).filter(Boolean);
  const where: Prisma.UserWhereInput = {
    AND: words.map((word) => ({
      OR: (["firstname", "lastname", "email"] as const).map((field) => ({ [field]: containsText(word) })),
    })),
  };
  return db.user.findMany({
    where,
    include: withRole,
    orderBy: [{ firstname: "asc" }, { lastname: "asc" }, { id: "asc" }],
  });
}

export function findUserByEmail(db: TenantDb, email: string) {
  // citext: equality ignores case.
  return db.user.findFirst({ where: { email }, include: withRole });
}

/** The user with this id in the caller's tenant; 403 when only another tenant has it, 404 when nobody does. */
export async function getUser(db: TenantDb, id: number) {
  const user = await db.user.findFirst({ where: { id }, include: withRole });
  if (user) return user;
  // The one lookup across tenants, like missingRecord for uuids: it reveals only that the id exists.
  const elsewhere = await (await prisma()).user.count({ where: { id } });
  throw elsewhere > 0 ? forbidden() : notFound("User");
}
