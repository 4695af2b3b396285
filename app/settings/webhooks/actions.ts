"use server";
// The webhooks page's mutations. Each one acts in the signed-in person's firm, and only when their role (read
// afresh) has webhooks.manage: a Standard user's forged request is refused, whatever the form says.
// Cross-site request forgery: as for the tokens page, Next runs a server action only for a POST whose Origin names
// this site, and the session cookie is SameSite=Lax.
import { revalidatePath } from "next/cache";
import { after } from "next/server";
import { webActor } from "@/lib/audit/mutations";
import { requireSignedInUser } from "@/lib/auth/session";
import { collectDeferred } from "@/lib/core/deferred";
import { ApiError, zodFieldErrors } from "@/lib/core/errors";
import { WEBHOOKS_PATH } from "@/lib/paths";
import { createWebhook, deleteWebhook, rotateSecret, sendTest, updateWebhook } from "@/lib/webhooks/mutations";
import { findWebhook } from "@/lib/webhooks/queries";
import { createWebhookBody } from "@/lib/webhooks/schemas";
import { requireWebhookManager } from "@/lib/webhooks/settings";

export type CreateWebhookState =
  | { status: "idle" }
  // `values`: what was sent, shown again so that a refused field does not cost the others.
  | { status: "invalid"; errors: Record<string, string[]>; values: WebhookFormValues }
  // The secret travels only in this answer; the page never renders it from the database, so a reload loses it.
  | { status: "created"; uuid: string; url: string; secret: string };

export interface WebhookFormValues {
  url: string;
  description: string;
  events: string[];
}

export type RotateSecretState = { status: "idle" } | { status: "rotated"; secret: string };

async function manager() {
  const user = await requireSignedInUser(WEBHOOKS_PATH);
  return { ...(await requireWebhookManager(user)), actor: await webActor(user) };
}

export async function createWebhookAction(_previous: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  const scope = await manager();
  const values: WebhookFormValues = {
    url: String(form.get("url") ?? ""),
    description: String(form.get("description") ?? ""),
    events: form.getAll("events").map(String),
  };
  const parsed = createWebhookBody.safeParse({
    url: values.url,
    events: values.events,
    ...(values.description ? { description: values.description } : {}),
  });
  if (!parsed.success) return { status: "invalid", errors: zodFieldErrors(parsed.error), values };
  try {
    const endpoint = await createWebhook(scope, parsed.data);
    revalidatePath(WEBHOOKS_PATH);
    return { status: "created", uuid: endpoint.uuid, url: endpoint.url, secret: endpoint.secret };
  } catch (error) {
    if (error instanceof ApiError && error.errors) return { status: "invalid", errors: error.errors, values };
    throw error;
  }
}

/** The endpoint a form names, in the person's own firm (another firm's uuid is refused by findWebhook). */
async function named(form: FormData) {
  const scope = await manager();
  return { scope, endpoint: await findWebhook(scope, form.get("uuid")) };
}

export async function sendTestAction(form: FormData): Promise<void> {
  const { scope, endpoint } = await named(form);
  // Recorded now, attempted once the page has its answer: the page lists the delivery and its outcome follows.
  const { deferred } = await collectDeferred(() => sendTest(scope, endpoint));
  for (const task of deferred) after(task);
  revalidatePath(WEBHOOKS_PATH);
}

export async function setEnabledAction(form: FormData): Promise<void> {
  const { scope, endpoint } = await named(form);
  await updateWebhook(scope, endpoint, { enabled: form.get("enabled") === "true" });
  revalidatePath(WEBHOOKS_PATH);
}

export async function deleteWebhookAction(form: FormData): Promise<void> {
  const { scope, endpoint } = await named(form);
  await deleteWebhook(scope, endpoint);
  revalidatePath(WEBHOOKS_PATH);
}

export async function rotateSecretAction(_previous: RotateSecretState, form: FormData): Promise<RotateSecretState> {
  const { scope, endpoint } = await named(form);
  const rotated = await rotateSecret(scope, endpoint);
  revalidatePath(WEBHOOKS_PATH);
  return { status: "rotated", secret: rotated.secret };
}
