// The account settings pages and who may use each, in one place for one rule (decisions.md, Roles): a page a role
// may not use is missing from its navigation and answers a 404 when visited, as if there were no such page.
import { notFound } from "next/navigation";
import { loadPermissions, type Permission } from "@/lib/auth/permissions";
import { requireSignedInUser, type SignedInUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db/client";
import {
  API_TOKENS_PATH,
  APPS_PATH,
  AUDIT_PATH,
  CONNECTED_APPS_PATH,
  PROFILE_PATH,
  TEAM_PATH,
  WEBHOOKS_PATH,
} from "@/lib/paths";

interface SettingsPage {
  href: string;
  label: string;
  /** Needed to use the page; read from the person's role afresh on every request. None: everyone signed in. */
  permission?: Permission;
}

export const SETTINGS_PAGES: readonly SettingsPage[] = [
  { href: PROFILE_PATH, label: "Profile" },
  { href: API_TOKENS_PATH, label: "API tokens" },
  { href: CONNECTED_APPS_PATH, label: "Connected apps" },
  { href: APPS_PATH, label: "App policy", permission: "tokens.manage_all" },
  { href: TEAM_PATH, label: "Team", permission: "users.manage" },
  { href: WEBHOOKS_PATH, label: "Webhooks", permission: "webhooks.manage" },
  { href: AUDIT_PATH, label: "Audit log", permission: "audit.read" },
];

/** The settings pages this person may use, for the navigation. */
export async function settingsPagesFor(user: SignedInUser): Promise<SettingsPage[]> {
  const permissions = await loadPermissions(await prisma(), user);
  return SETTINGS_PAGES.filter((page) => !page.permission || permissions.has(page.permission));
}

/** The signed-in person (signed-out visitors go to sign in), or the 404 page when their role may not use `path`. */
export async function requireSettingsPage(path: string): Promise<SignedInUser> {
  const user = await requireSignedInUser(path);
  const page = SETTINGS_PAGES.find((candidate) => candidate.href === path);
  if (page?.permission && !(await loadPermissions(await prisma(), user)).has(page.permission)) notFound();
  return user;
}
