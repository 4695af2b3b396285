"use server";
// The team page's mutations. Each one takes the signed-in person from the session, and the lib/team function it
// calls checks afresh that their role may manage the firm's people (`users.manage`) and looks every id of the form
// up inside their firm only: a Standard user, or an id of another firm's person, role or group, changes nothing.
// Cross-site requests cannot call them (see app/settings/api-tokens/actions.ts).
import { revalidatePath } from "next/cache";
import { requireSignedInUser } from "@/lib/auth/session";
import { printedBaseUrl } from "@/lib/base-url";
import { INVITE_PATH, RESET_PATH, TEAM_PATH } from "@/lib/paths";
import { TeamInputError, TeamPermissionError } from "@/lib/team/errors";
import {
  archiveTeamMember,
  type InviteLink,
  inviteTeamMember,
  renewInvite,
  unarchiveTeamMember,
  updateTeamMember,
} from "@/lib/team/mutations";
import { createResetLink } from "@/lib/team/password-reset";

export type InviteState =
  | { status: "idle" }
  // `values`: what was sent, shown again so that one wrong field does not cost the others.
  | { status: "invalid"; errors: Partial<Record<string, string>>; values: Record<string, string | string[]> }
  // The link travels only in this answer; the page never renders it from the database, so a reload loses it.
  | { status: "invited"; userId: number; name: string; email: string; link: string; expiresAt: string };

/** What a change to a person did, or why it did nothing: said on the page's live region. */
export type MemberActionResult =
  | { status: "done"; message: string }
  | { status: "error"; message: string; errors?: Partial<Record<string, string>> };

/**
 * The refusal a failed action answers with, shown on the page: input that cannot be done, or a role without
 * `users.manage` (a forged form), which is logged as a refusal. Anything else is a fault and goes on.
 */
function refusal(error: unknown, user: { tenantId: number; userId: number }, action: string): TeamInputError {
  if (!(error instanceof TeamInputError)) throw error;
  if (error instanceof TeamPermissionError)
    console.warn(`Refused ${action}: user ${user.userId} of tenant ${user.tenantId} lacks users.manage.`);
  return error;
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "");
const ids = (form: FormData, name: string) => form.getAll(name).map(String);

function shared(link: InviteLink, path = INVITE_PATH) {
  return {
    userId: link.userId,
    name: link.name,
    email: link.email,
    link: `${printedBaseUrl()}${path}/${link.token}`,
    expiresAt: link.expiresAt.toISOString(),
  };
}

export async function inviteAction(_previous: InviteState, form: FormData): Promise<InviteState> {
  const user = await requireSignedInUser(TEAM_PATH);
  const values = {
    name: text(form, "name"),
    email: text(form, "email"),
    roleId: text(form, "roleId"),
    clientAccess: text(form, "clientAccess"),
    groupIds: ids(form, "groupIds"),
  };
  try {
    const link = await inviteTeamMember(user, values);
    revalidatePath(TEAM_PATH);
    return { status: "invited", ...shared(link) };
  } catch (error) {
    return { status: "invalid", errors: refusal(error, user, "team invite").fields, values };
  }
}

export type RenewState = { status: "idle" } | (InviteState & { status: "invited" }) | MemberActionResult;

/** A new invite link for someone who has not set a password yet. */
export async function renewInviteAction(_previous: RenewState, form: FormData): Promise<RenewState> {
  const user = await requireSignedInUser(TEAM_PATH);
  try {
    const link = await renewInvite(user, form.get("userId"));
    revalidatePath(TEAM_PATH);
    return { status: "invited", ...shared(link) };
  } catch (error) {
    return { status: "error", message: refusal(error, user, "invite renewal").message };
  }
}

/**
 * A one-time link for an active person to set a new password (they forgot theirs). Changes nothing until it is used;
 * a newer link replaces it.
 */
export async function resetLinkAction(_previous: RenewState, form: FormData): Promise<RenewState> {
  const user = await requireSignedInUser(TEAM_PATH);
  try {
    const link = await createResetLink(user, form.get("userId"));
    revalidatePath(TEAM_PATH);
    return { status: "invited", ...shared(link, RESET_PATH) };
  } catch (error) {
    return { status: "error", message: refusal(error, user, "reset link").message };
  }
}

async function answer(
  user: { tenantId: number; userId: number },
  action: string,
  run: () => Promise<string>,
): Promise<MemberActionResult> {
  try {
    const message = await run();
    revalidatePath(TEAM_PATH);
    return { status: "done", message };
  } catch (error) {
    const refused = refusal(error, user, action);
    return { status: "error", message: refused.message, errors: refused.fields };
  }
}

export async function updateMemberAction(form: FormData): Promise<MemberActionResult> {
  const user = await requireSignedInUser(TEAM_PATH);
  return answer(user, "member change", async () => {
    const changed = await updateTeamMember(user, {
      userId: form.get("userId"),
      roleId: text(form, "roleId"),
      clientAccess: text(form, "clientAccess"),
      groupIds: ids(form, "groupIds"),
    });
    return `${changed.name} is saved: ${changed.role}.`;
  });
}

export async function archiveMemberAction(form: FormData): Promise<MemberActionResult> {
  const user = await requireSignedInUser(TEAM_PATH);
  return answer(user, "member archive", async () => {
    const archived = await archiveTeamMember(user, form.get("userId"));
    const tokens = archived.revokedTokens;
    return `${archived.name} is archived: signed out everywhere${tokens ? `, ${tokens} API token${tokens === 1 ? "" : "s"} revoked` : ""}.`;
  });
}

export async function unarchiveMemberAction(form: FormData): Promise<MemberActionResult> {
  const user = await requireSignedInUser(TEAM_PATH);
  return answer(user, "member unarchive", async () => {
    const back = await unarchiveTeamMember(user, form.get("userId"));
    return back.needsInvite
      ? `${back.name} is back. They have no password yet: make them a new invite link.`
      : `${back.name} is back and can sign in again.`;
  });
}
