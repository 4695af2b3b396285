import type { PrismaClient } from "@/lib/generated/prisma/client";
import { OperatorInputError } from "@/lib/team/errors";

/** A firm named by its id (digits) or its name (any case), as an operator types it on the command line. */
export async function findTenant(client: PrismaClient, ref: string) {
  const trimmed = ref.trim();
  const tenant = /^\d+$/.test(trimmed)
    ? await client.tenant.findUnique({ where: { id: Number(trimmed) } })
    : await client.tenant.findFirst({ where: { name: { equals: trimmed, mode: "insensitive" } } });
  if (!tenant) throw new OperatorInputError({ tenant: [`No firm has the id or name "${trimmed}".`] });
  return tenant;
}
