// Reading users of the caller's tenant. Users are few per tenant, so the list is not paginated.
import type { Caller } from "@/lib/auth/caller";
import { forbidden, notFound } from "@/lib/core/errors";
import { updatedSince } from "@/lib/core/pagination";
import { prisma } from "@/lib/db/client";
import { containsText } from "@/lib/db/filters";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ListUsersQuery } from "./schemas";

const USER_ORDERS: Record<ListUsersQuery["sort_by"], Prisma.UserOrderByWithRelationInput[]> = {
  name: [{ firstname: "asc" }, { lastname: "asc" }, { id: "asc" }],
  updated_at: [{ updatedAt: "asc" }, { id: "asc" }],
};

const withRole = { role: { select: { name: true } } } satisfies Prisma.UserInclude;

/** Every word of the search must match the first name, last name or email ("olivia own" finds Olivia Owner). */
export function listUsers(caller: Caller, { search, sort_by, updated_since }: ListUsersQuery) {
  const words = (search ?? "").split(/\s+/).filter(Boolean);
  const where: Prisma.UserWhereInput = {
    AND: [
      ...words.map((word) => ({
        OR: (["firstname", "lastname", "email"] as const).map((field) => ({ [field]: containsText(word) })),
      })),
      updatedSince(updated_since) ?? {},
    ],
  };
  return caller.db.user.findMany({
    where,
    include: withRole,
    orderBy: USER_ORDERS[sort_by],
  });
}

export function findUserByEmail(caller: Caller, email: string) {
  // citext: equality ignores case.
  return caller.db.user.findFirst({ where: { email }, include: withRole });
}

/** The user with this id in the caller's tenant; 403 when only another tenant has it, 404 when nobody does. */
export async function getUser(caller: Caller, id: number) {
  const user = await caller.db.user.findFirst({ where: { id }, include: withRole });
  if (user) return user;
  // The one lookup across tenants, like missingRecord for uuids: it reveals only that the id exists.
  const elsewhere = await (await prisma()).user.count({ where: { id } });
  throw elsewhere > 0 ? forbidden() : notFound("User");
}
