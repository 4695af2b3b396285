"use server";
// The app-policy page's mutations (Owners and Admins): lib/oauth/pages.ts reads the person's role afresh and refuses
// anyone without tokens.manage_all; the firm comes from the session, never from the form.
import { revalidatePath } from "next/cache";
import { requireSignedInUser } from "@/lib/auth/session";
import { appNameSchema, redirectUrisSchema } from "@/lib/oauth/clients";
import { changeFirmPolicy, deleteApp, listFirmApp, registerApp, unlistFirmApp } from "@/lib/oauth/pages";
import { APPS_PATH } from "@/lib/paths";
import { TOKEN_RESOURCES, tokenAccessSchema } from "@/lib/tokens/access";

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

export async function savePolicyAction(form: FormData): Promise<void> {
  const user = await requireSignedInUser(APPS_PATH);
  await changeFirmPolicy(user, {
    onlyListedApps: form.get("apps") === "listed",
    personalTokensAtMcp: form.get("personal_tokens_at_mcp") === "on",
  });
  revalidatePath(APPS_PATH);
}

export type ListAppState = { status: "idle" } | { status: "invalid"; error: string } | { status: "listed" };

export async function listAppAction(_previous: ListAppState, form: FormData): Promise<ListAppState> {
  const user = await requireSignedInUser(APPS_PATH);
  const cap = tokenAccessSchema.safeParse(Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, form.get(`cap.${r}`)])));
  const clientId = text(form, "client_id");
  if (!clientId || !cap.success) return { status: "invalid", error: "Give the app's client_id and its access cap." };
  try {
    await listFirmApp(user, clientId, cap.data);
  } catch (error) {
    return { status: "invalid", error: (error as Error).message };
  }
  revalidatePath(APPS_PATH);
  return { status: "listed" };
}

export async function unlistAppAction(form: FormData): Promise<void> {
  const user = await requireSignedInUser(APPS_PATH);
  await unlistFirmApp(user, text(form, "client_id"));
  revalidatePath(APPS_PATH);
}

export type RegisterAppState =
  | { status: "idle" }
  | { status: "invalid"; error: string }
  // The secret travels only in this answer: only its hash is stored.
  | { status: "registered"; name: string; clientId: string; secret: string | null };

export async function registerAppAction(_previous: RegisterAppState, form: FormData): Promise<RegisterAppState> {
  const user = await requireSignedInUser(APPS_PATH);
  const name = appNameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return { status: "invalid", error: name.error.issues[0].message };
  const uris = redirectUrisSchema.safeParse(text(form, "redirect_uris").split(/\s+/).filter(Boolean));
  if (!uris.success) return { status: "invalid", error: uris.error.issues[0].message };
  const confidential = form.get("type") === "confidential";
  const { clientId, secret } = await registerApp(user, { name: name.data, redirectUris: uris.data, confidential });
  revalidatePath(APPS_PATH);
  return { status: "registered", name: name.data, clientId, secret };
}

export async function deleteAppAction(form: FormData): Promise<void> {
  const user = await requireSignedInUser(APPS_PATH);
  await deleteApp(user, text(form, "client_id"));
  revalidatePath(APPS_PATH);
}
