"use server";
// The profile page's mutations. Each acts on the signed-in person only: the user comes from the session, never
// from the form. Cross-site requests cannot call them (see app/settings/api-tokens/actions.ts).
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import type { z } from "zod";
import { changePassword, passwordChangeSchema, profileSchema, updateProfile } from "@/lib/auth/account";
import { renewSession, requireSignedInUser } from "@/lib/auth/session";
import { PROFILE_PATH } from "@/lib/paths";

export type FormState =
  | { status: "idle" }
  // `values`: what was sent, shown again so that one wrong field does not cost the others (never passwords).
  | { status: "invalid"; errors: Partial<Record<string, string>>; values?: Record<string, string> }
  | { status: "saved"; message: string };

/** The first message per field, keyed by the form field's name. */
function fieldErrors(error: z.ZodError): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  for (const issue of error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

const fields = (form: FormData, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")]));

export async function saveProfile(_previous: FormState, form: FormData): Promise<FormState> {
  const user = await requireSignedInUser(PROFILE_PATH);
  const values = fields(form, ["firstname", "lastname", "timezone"]);
  const input = profileSchema.safeParse(values);
  if (!input.success) return { status: "invalid", errors: fieldErrors(input.error), values };
  await updateProfile(user, input.data);
  revalidatePath("/settings", "layout");
  return { status: "saved", message: "Your profile is saved." };
}

export async function savePassword(_previous: FormState, form: FormData): Promise<FormState> {
  const user = await requireSignedInUser(PROFILE_PATH);
  const input = passwordChangeSchema.safeParse(fields(form, ["current", "next", "confirmation"]));
  if (!input.success) return { status: "invalid", errors: fieldErrors(input.error) };
  const sessionVersion = await changePassword(user, input.data.current, input.data.next, await headers());
  if (sessionVersion === "wrong-password") {
    return { status: "invalid", errors: { current: "That is not your current password." } };
  }
  if (sessionVersion === "throttled") {
    return { status: "invalid", errors: { current: "Too many wrong passwords. Wait 15 minutes, then try again." } };
  }
  // Every other session of this person has ended; this browser stays signed in.
  await renewSession(sessionVersion);
  return { status: "saved", message: "Your password is changed. You were signed out everywhere else." };
}
