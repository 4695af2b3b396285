// What the team page (/settings/team) and the invite page (/invite/<token>) accept from their forms. Ids from a form
// are only ever looked up inside the signed-in person's firm (lib/team/mutations.ts); these schemas check their shape.
import { z } from "zod";
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-rules";
import { isStorableText } from "@/lib/core/validation";
import type { ClientAccess } from "@/lib/generated/prisma/enums";

/** How long an invite link works. */
export const INVITE_DAYS = 7;

export const CLIENT_ACCESS = ["all", "client_groups", "assigned_clients"] as const satisfies readonly ClientAccess[];

/** The words the page uses for each client access. */
export const CLIENT_ACCESS_LABELS: Record<ClientAccess, string> = {
  all: "All clients",
  client_groups: "Clients in their groups",
  assigned_clients: "Assigned clients only",
};

/** An invite link's secret: 32 random bytes, base64url (lib/team/mutations.ts). Anything else is not looked up. */
export const INVITE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const id = (message: string) =>
  z.coerce
    .number(message)
    .int(message)
    .positive(message)
    .max(2 ** 31 - 1, message);

export const userIdSchema = id("Choose a person of your firm.");
const roleIdSchema = id("Choose a role.");
const groupIdsSchema = z.array(id("Choose client groups from the list.")).max(100, "Choose at most 100 groups.");

const clientAccessSchema = z.enum(CLIENT_ACCESS, "Choose a client access from the list.");

/** Client groups are the person's own fact; with access by client groups they need at least one. */
function groupsForAccess(input: { clientAccess: ClientAccess; groupIds: number[] }, ctx: z.RefinementCtx) {
  if (input.clientAccess === "client_groups" && input.groupIds.length === 0)
    ctx.addIssue({
      code: "custom",
      path: ["groupIds"],
      message: "Choose at least one client group: with this access the person sees the clients of their groups.",
    });
}

export const inviteSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Enter the person's full name.")
      .max(200, "The name may be at most 200 characters.")
      .refine(isStorableText, "The name may not contain NUL or unpaired surrogate characters."),
    email: z.string().trim().pipe(z.email("Enter a valid email address.").max(254, "The email is too long.")),
    roleId: roleIdSchema,
    clientAccess: clientAccessSchema,
    groupIds: groupIdsSchema,
  })
  .superRefine(groupsForAccess);

export type InviteInput = z.output<typeof inviteSchema>;

/** A change of a person's role, client access and client groups. */
export const memberChangeSchema = z
  .object({ userId: userIdSchema, roleId: roleIdSchema, clientAccess: clientAccessSchema, groupIds: groupIdsSchema })
  .superRefine(groupsForAccess);

/** The first password, set from an invite link: the profile page's rules for a new password. */
export const invitePasswordSchema = z
  .object({
    password: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
      .refine(
        (value) => Buffer.byteLength(value) <= PASSWORD_MAX_BYTES,
        `The password may be at most ${PASSWORD_MAX_BYTES} bytes (fewer characters for accented letters or emoji).`,
      )
      .refine(isStorableText, "The password may not contain NUL or unpaired surrogate characters."),
    confirmation: z.string(),
  })
  .refine((input) => input.password === input.confirmation, {
    path: ["confirmation"],
    message: "The two passwords differ. Type the same one twice.",
  });

/** The first message per field, keyed by the form field's name. */
export function fieldErrors(error: z.ZodError): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}
