// Wire shapes of users.
import type { z } from "zod";
import { fromDbDateOrNull } from "@/lib/core/dates";
import type { ClientAccess } from "@/lib/generated/prisma/enums";
import type { profileObject, userObject, userSummaryObject } from "./schemas";

/** GET /me: exactly the profile fields of the spec. Only active users can authenticate, so `active` is true. */
export function serializeProfile(user: {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  timezone: string;
}): z.output<typeof profileObject> {
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    fullname: fullname(user),
    timezone: user.timezone,
    active: true,
  };
}

interface NamedUser {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
  avatarUrl: string | null;
}

interface SerializableUser extends NamedUser {
  timezone: string;
  clientAccess: ClientAccess;
  isOwner: boolean;
  archivedDate: Date | null;
  updatedAt: Date;
  role: { name: string };
}

const fullname = (user: { firstname: string; lastname: string }) => `${user.firstname} ${user.lastname}`.trim();

const initials = (user: { firstname: string; lastname: string }) =>
  `${[...user.firstname][0] ?? ""}${[...user.lastname][0] ?? ""}`.toUpperCase();

/** The placeholder avatar's image around its (XML-escaped) text; lib/users/wire.ts builds the same in SQL. */
export const placeholderSvg = (text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#64748b"/>` +
  `<text x="32" y="41" font-family="sans-serif" font-size="24" fill="#fff" text-anchor="middle">${text}</text></svg>`;

/** The stored avatar, or a placeholder with the user's initials, so that `avatar_url` is always a usable image. */
function avatarUrl(user: NamedUser): string {
  if (user.avatarUrl) return user.avatarUrl;
  return `data:image/svg+xml,${encodeURIComponent(placeholderSvg(escapeXml(initials(user))))}`;
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A user inside another record (job assignees and followers). */
export function serializeUserSummary(user: NamedUser): z.output<typeof userSummaryObject> {
  return {
    id: user.id,
    fullname: fullname(user),
    email: user.email,
    initials: initials(user),
    avatar_url: avatarUrl(user),
  };
}

/** A time log's user: exactly `{id, fullname}` as the spec shows it. */
export const serializeUserName = (user: { id: number; firstname: string; lastname: string }) => ({
  id: user.id,
  fullname: fullname(user),
});

/**
 * The user object of /users as Node writes it: what lib/users/wire.ts, which answers the reads, is proved equal to
 * (tests/api/wire-equivalence.test.ts). `is_contractor` is derived (decisions.md): true exactly for `assigned_clients`.
 */
export function serializeUser(user: SerializableUser): z.output<typeof userObject> {
  return {
    id: user.id,
    fullname: fullname(user),
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    initials: initials(user),
    avatar_url: avatarUrl(user),
    role: user.role.name,
    timezone: user.timezone,
    client_access: user.clientAccess,
    is_contractor: user.clientAccess === "assigned_clients",
    is_owner: user.isOwner,
    archived_date: fromDbDateOrNull(user.archivedDate),
    updated_at: user.updatedAt.toISOString(),
  };
}
