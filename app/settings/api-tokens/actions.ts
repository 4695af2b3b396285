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
import { prisma } from "@/lib/db/client";
import { API_TOKENS_PATH } from "@/lib/paths";
import { createApiToken, revokeApiToken, tokenNameSchema } from "@/lib/tokens";

export type CreateTokenState =
  | { status: "idle" }
  | { status: "invalid"; error: string }
  // The value travels only in this answer; the page never renders it from the database, so a reload loses it.
  | { status: "created"; name: string; token: string };

export async function createToken(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const user = await requireSignedInUser(API_TOKENS_PATH);
  const name = tokenNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return { status: "invalid", error: name.error.issues[0].message };
  const { token, summary } = await createApiToken(await prisma(), user, name.data);
  revalidatePath(API_TOKENS_PATH);
  return { status: "created", name: summary.name, token };
}

const tokenIdSchema = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

export async function deleteToken(form: FormData): Promise<void> {
  const user = await requireSignedInUser(API_TOKENS_PATH);
  const id = tokenIdSchema.safeParse(form.get("id"));
  if (id.success) await revokeApiToken(await prisma(), user, id.data);
  revalidatePath(API_TOKENS_PATH);
}
