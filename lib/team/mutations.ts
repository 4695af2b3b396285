// A firm's people, managed by the operator from the command line (user:create, user:archive; tenant:create adds
// the Owner through personRow). A new person gets a random password that is shown once and stored only as a
// bcrypt hash; they sign in with it and change it at /settings/profile.
import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { tenantDb } from "@/lib/db/tenant";
import { violatedUniqueConstraint } from "@/lib/db/unique";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { ClientAccess } from "@/lib/generated/prisma/enums";
import { findTenant } from "@/lib/tenants/find";
import { OperatorInputError, parseOperatorInput } from "./errors";

const CLIENT_ACCESS = ["all", "client_groups", "assigned_clients"] as const satisfies readonly ClientAccess[];
const BCRYPT_COST = 10; // as the demo seed and sign-in expect

function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The fields that describe a person, shared by tenant:create (its Owner) and user:create. */
export const personFields = {
  email: z.string().trim().pipe(z.email("Must be a valid email address.").max(254)),
  name: z.string().trim().min(1, "Give the person's full name.").max(200, "Must be at most 200 characters."),
  timezone: z.string().trim().refine(isTimeZone, "Must be an IANA time zone name, such as Europe/London.").optional(),
};

/** A new user row with a fresh one-time password, and that password (its only appearance). */
export async function personRow(person: { email: string; name: string; timezone: string }) {
  const password = randomBytes(15).toString("base64url");
  const [firstname, ...rest] = person.name.split(/\s+/);
  return {
    password,
    row: {
      email: person.email,
      firstname,
      lastname: rest.join(" "),
      timezone: person.timezone,
      passwordHash: await bcrypt.hash(password, BCRYPT_COST),
    },
  };
}

const createUserInput = z
  .object({
    tenant: z.string().trim().min(1, "Name the firm (its id or name)."),
    ...personFields,
    role: z.string().trim().min(1).default("Standard"),
    clientAccess: z.enum(CLIENT_ACCESS, `Must be one of: ${CLIENT_ACCESS.join(", ")}.`).default("all"),
    clientGroups: z.array(z.string().trim().min(1).max(200)).max(100).default([]),
  })
  .superRefine((input, ctx) => {
    if (input.clientAccess === "client_groups" && input.clientGroups.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["clientGroups"],
        message: "Client access client_groups needs at least one client group.",
      });
    if (input.clientAccess !== "client_groups" && input.clientGroups.length > 0)
      ctx.addIssue({
        code: "custom",
        path: ["clientGroups"],
        message: "Client groups apply only with client access client_groups.",
      });
  });

export type CreateUserInput = z.input<typeof createUserInput>;

/**
 * Adds a person to a firm with a role (any of the firm's roles but Owner: a firm has one Owner), a client access
 * and, for client_groups access, client groups by name (created when the firm does not have them yet).
 */
export async function createUser(client: PrismaClient, raw: CreateUserInput) {
  const input = parseOperatorInput(createUserInput, raw);
  const tenant = await findTenant(client, input.tenant);
  const db = tenantDb(client, tenant.id);
  const roles = await db.role.findMany({ orderBy: { id: "asc" } });
  const role = roles.find((r) => r.name.toLowerCase() === input.role.toLowerCase());
  if (!role || role.name === "Owner") {
    const choices = roles.filter((r) => r.name !== "Owner").map((r) => r.name);
    throw new OperatorInputError({
      role: [
        `${role ? "A firm has one Owner, made with the firm." : `${tenant.name} has no role "${input.role}".`} Choose one of: ${choices.join(", ")}.`,
      ],
    });
  }
  const duplicate = () =>
    new OperatorInputError({ email: [`${tenant.name} already has a user with the email ${input.email}.`] });
  if (await db.user.findFirst({ where: { email: input.email } })) throw duplicate();

  const { row, password } = await personRow({ ...input, timezone: input.timezone ?? tenant.timezone });
  try {
    const { user, createdGroups } = await db.$transaction(async (tx) => {
      const existing = await tx.clientGroup.findMany({ where: { name: { in: input.clientGroups } } });
      const missing = [...new Set(input.clientGroups)].filter((name) => !existing.some((g) => g.name === name));
      const created = await tx.clientGroup.createManyAndReturn({
        data: missing.map((name) => ({ tenantId: tenant.id, name })),
      });
      const user = await tx.user.create({
        data: { ...row, tenantId: tenant.id, roleId: role.id, clientAccess: input.clientAccess },
      });
      await tx.userClientGroup.createMany({
        data: [...existing, ...created].map((g) => ({ tenantId: tenant.id, userId: user.id, groupId: g.id })),
      });
      return { user, createdGroups: created.map((g) => g.name) };
    });
    return { tenant, user, role: role.name, password, createdGroups };
  } catch (error) {
    // Two runs racing for the same email: the unique index decides.
    if (violatedUniqueConstraint(error) === "users_tenant_id_email_key") throw duplicate();
    throw error;
  }
}

const archiveUserInput = z.object({
  tenant: z.string().trim().min(1, "Name the firm (its id or name)."),
  email: personFields.email,
});

/** Archives a person: they can no longer sign in and their API tokens stop working. The Owner cannot be archived. */
export async function archiveUser(client: PrismaClient, raw: z.input<typeof archiveUserInput>) {
  const input = parseOperatorInput(archiveUserInput, raw);
  const tenant = await findTenant(client, input.tenant);
  const db = tenantDb(client, tenant.id);
  const user = await db.user.findFirst({ where: { email: input.email } });
  if (!user) throw new OperatorInputError({ email: [`${tenant.name} has no user with the email ${input.email}.`] });
  if (user.isOwner)
    throw new OperatorInputError({ email: [`${user.email} is the Owner of ${tenant.name} and cannot be archived.`] });
  if (user.archivedDate)
    throw new OperatorInputError({
      email: [`${user.email} was already archived on ${user.archivedDate.toISOString().slice(0, 10)}.`],
    });
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  return {
    tenant,
    user: await db.user.update({
      where: { tenantId_id: { tenantId: user.tenantId, id: user.id } },
      data: { archivedDate: today },
    }),
  };
}
