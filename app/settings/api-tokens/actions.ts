"use server";
// The tokens page's mutations. Each one acts as the signed-in person on their own tokens only: the owner comes from
// the session, never from the form, so a forged token id of someone else's token matches nothing.
//
// Cross-site request forgery: Next runs a server action only for a POST whose Origin header names this site (it
// compares Origin with Host / X-Forwarded-Host and refuses a mismatch), and the session cookie is SameSite=Lax, so
// a page on another site can neither call these actions nor make a browser send the cookie to them.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/session";
import { ApiError } from "@/lib/core/errors";
import { logRefusal } from "@/lib/core/log";
import { API_TOKENS_PATH } from "@/lib/paths";
import { TOKEN_EXPIRY_DAYS, TokenLimitError, tokenNameSchema } from "@/lib/tokens";
import { TOKEN_PRESETS, TOKEN_RESOURCES, type TokenAccess, tokenAccessSchema } from "@/lib/tokens/access";
import { createOwnToken, revokeOwnToken, revokeTokenOfFirm } from "@/lib/tokens/settings";

export type CreateTokenState =
  | { status: "idle" }
  // `values`: what was sent, shown again so that a refusal does not cost the choices made.
  | { status: "invalid"; error: string; values: TokenFormValues }
  // The value travels only in this answer; the page never renders it from the database, so a reload loses it.
  | { status: "created"; id: number; name: string; token: string };

/** The form's fields as sent: the name, the expiry, the preset and each resource's level under Custom. */
export interface TokenFormValues {
  name: string;
  expires: string;
  preset: string;
  access: Record<string, string>;
}

function sentValues(form: FormData): TokenFormValues {
  const text = (name: string) => String(form.get(name) ?? "");
  return {
    name: text("name"),
    expires: text("expires"),
    preset: text("preset"),
    access: Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, text(`access.${r}`)])),
  };
}

/** "never" or one of the offered numbers of days; anything else (a forged form) is refused. */
const expirySchema = z.union([
  z.literal("never").transform(() => null),
  z.enum(TOKEN_EXPIRY_DAYS.map(String) as [string, ...string[]]).transform(Number),
]);

/** "full" or "read" (the presets), or "custom" with a level per resource in `access.<resource>`. */
function accessOf(form: FormData): TokenAccess | null {
  const preset = form.get("preset");
  if (preset === "full" || preset === "read") return TOKEN_PRESETS[preset];
  if (preset !== "custom") return null;
  const chosen = tokenAccessSchema.safeParse(
    Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, form.get(`access.${r}`)])),
  );
  return chosen.success ? chosen.data : null;
}

export async function createToken(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const user = await requireSignedInUser(API_TOKENS_PATH);
  const values = sentValues(form);
  const refuse = (error: string): CreateTokenState => ({ status: "invalid", error, values });
  const name = tokenNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return refuse(name.error.issues[0].message);
  const expiresInDays = expirySchema.safeParse(form.get("expires"));
  const access = accessOf(form);
  if (!expiresInDays.success || !access) return refuse("Choose an expiry and the access.");
  // Such a token could call only /me and /token: almost certainly a slip, not what was meant.
  if (TOKEN_RESOURCES.every((resource) => access[resource] === "none"))
    return refuse("Give the token access to at least one resource: with none, it can do nothing.");
  try {
    const { token, summary } = await createOwnToken(user, name.data, {
      access,
      expiresInDays: expiresInDays.data,
    });
    revalidatePath(API_TOKENS_PATH);
    return { status: "created", id: summary.id, name: summary.name, token };
  } catch (error) {
    if (error instanceof TokenLimitError) return refuse(error.message);
    throw error;
  }
}

const tokenIdSchema = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

/**
 * Revokes any token of the signed-in person's tenant: only with `tokens.manage_all` (checked in lib/tokens).
 * Takes the token id only; the tenant comes from the session. A role without it has no such form: a forged one
 * revokes nothing and is logged as a refusal (thrown, it was a 500).
 */
export async function revokeFirmTokenAction(form: FormData): Promise<void> {
  const user = await requireSignedInUser(API_TOKENS_PATH);
  const id = tokenIdSchema.safeParse(form.get("id"));
  try {
    if (id.success) await revokeTokenOfFirm(user, id.data);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 403)) throw error;
    logRefusal("Firm token revoke refused: the role lacks tokens.manage_all", { user_id: user.userId });
  }
  revalidatePath(API_TOKENS_PATH);
}

export async function deleteToken(form: FormData): Promise<void> {
  const user = await requireSignedInUser(API_TOKENS_PATH);
  const id = tokenIdSchema.safeParse(form.get("id"));
  if (id.success) await revokeOwnToken(user, id.data);
  revalidatePath(API_TOKENS_PATH);
}
