// Onboarding a firm (`npm run tenant:create`): the tenant, its built-in roles, default job statuses and its Owner,
// in one transaction, so that a failure leaves nothing half made.
import { z } from "zod";
import { changesBetween } from "@/lib/audit/entries";
import { cliActor, recordAudit } from "@/lib/audit/mutations";
import { BUILT_IN_ROLES } from "@/lib/auth/permissions";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { OperatorInputError, parseOperatorInput } from "@/lib/team/errors";
import { personFields, personRow } from "@/lib/team/mutations";

/** Viewer (reads only) is built in too (decisions.md); it has no permission to list. */
export const NEW_TENANT_ROLES: Record<string, readonly string[]> = { ...BUILT_IN_ROLES, Viewer: [] };

/** [slug, display name, completes the job]: the statuses a firm starts with; it may rename or add to them. */
export const DEFAULT_JOB_STATUSES: readonly [string, string, boolean][] = [
  ["not-started", "Not started", false],
  ["in-progress", "In progress", false],
  ["awaiting-client", "Awaiting client", false],
  ["in-review", "In review", false],
  ["completed", "Completed", true],
];

const createTenantInput = z.object({
  name: z.string().trim().min(1, "Give the firm a name.").max(200, "Must be at most 200 characters."),
  ownerEmail: personFields.email,
  ownerName: personFields.name,
  timezone: personFields.timezone,
});

export type CreateTenantInput = z.input<typeof createTenantInput>;

export async function createTenant(client: PrismaClient, raw: CreateTenantInput) {
  const input = parseOperatorInput(createTenantInput, raw);
  const timezone = input.timezone ?? "UTC";
  // Firm names are not unique in the schema (two firms may share a name elsewhere); here a second firm of the same
  // name is almost always a command run twice, and later commands find a firm by its name.
  const taken = await client.tenant.findFirst({ where: { name: { equals: input.name, mode: "insensitive" } } });
  if (taken) throw new OperatorInputError({ name: [`A firm named "${taken.name}" already exists (id ${taken.id}).`] });

  const { row, password } = await personRow({ email: input.ownerEmail, name: input.ownerName, timezone });
  const { tenant, owner } = await client.$transaction(async (tx) => {
    const tenant = await tx.tenant.create({
      data: {
        name: input.name,
        timezone,
        roles: {
          create: Object.entries(NEW_TENANT_ROLES).map(([name, permissions]) => ({
            name,
            permissions: [...permissions],
          })),
        },
        jobStatuses: {
          create: DEFAULT_JOB_STATUSES.map(([slug, name, isCompleted], position) => ({
            slug,
            name,
            isCompleted,
            position,
          })),
        },
      },
      include: { roles: true, jobStatuses: true },
    });
    const ownerRole = tenant.roles.find((r) => r.name === "Owner")!;
    const owner = await tx.user.create({
      data: { ...row, tenantId: tenant.id, roleId: ownerRole.id, isOwner: true, clientAccess: "all" },
    });
    await recordAudit(
      tx,
      { actor: cliActor(tenant.id) },
      {
        action: "tenant.created",
        target: { type: "tenant", id: tenant.id, name: tenant.name },
        changes: changesBetween({}, { name: tenant.name, timezone, owner_email: owner.email }),
      },
    );
    return { tenant, owner };
  });
  return { tenant, owner, password };
}
