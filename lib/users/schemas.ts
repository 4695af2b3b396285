// Input and output shapes of the users endpoints.
import { z } from "zod";
import { dateOutput, updatedAtOutput } from "@/lib/core/dates";
import { notFound } from "@/lib/core/errors";
import { updatedSinceQuery } from "@/lib/core/pagination";
import { isStorableText, text } from "@/lib/core/validation";
import { component } from "@/lib/openapi/registry";

export const listUsersQuery = z.object({
  search: text(200)
    .optional()
    .describe("Matches first name, last name or email, case-insensitively; every word must match"),
  sort_by: z
    .enum(["name", "updated_at"])
    .default("name")
    .describe("name: first name, then last name; updated_at: oldest change first. Ties by id"),
  ...updatedSinceQuery,
});

/** A user id in a path: a positive whole number; anything else names no user (404), like a malformed uuid. */
export function pathUserId(value: string | string[] | undefined): number {
  if (typeof value !== "string" || !/^[1-9]\d{0,8}$/.test(value)) throw notFound("User");
  return Number(value);
}

/** The email of `/users/email/{email}`. Next has already decoded the path segment once; decoding again would be wrong. */
export function pathEmail(value: string | string[] | undefined): string {
  // Text no stored email can contain matches nobody.
  return typeof value === "string" && isStorableText(value) ? value.trim() : "";
}

/** GET /me: the authenticated user's profile. */
export const profileObject = component(
  z.object({
    id: z.number().int(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    fullname: z.string(),
    timezone: z.string().describe("IANA time zone name"),
    active: z.boolean(),
  }),
  "Profile",
);

/** A user inside another record (a job's assignees and followers). */
export const userSummaryObject = component(
  z.object({
    id: z.number().int(),
    fullname: z.string(),
    email: z.string(),
    initials: z.string(),
    avatar_url: z.string(),
  }),
  "UserSummary",
);

export const userObject = component(
  z.object({
    id: z.number().int(),
    fullname: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    initials: z.string(),
    avatar_url: z.string().describe("The user's picture, or a generated one with their initials"),
    role: z.string().describe("The role's name"),
    timezone: z.string().describe("IANA time zone name"),
    client_access: z
      .enum(["all", "client_groups", "assigned_clients"])
      .describe("How a Standard user's client visibility is limited"),
    is_contractor: z.boolean().describe("Deprecated: true exactly when client_access is assigned_clients"),
    is_owner: z.boolean(),
    archived_date: dateOutput().nullable(),
    updated_at: updatedAtOutput(),
  }),
  "User",
);

const userExample = {
  id: 3,
  fullname: "Sam Standard",
  firstname: "Sam",
  lastname: "Standard",
  email: "sam@firm.example",
  initials: "SS",
  avatar_url: "https://app.example.com/avatars/SS.svg",
  role: "Standard",
  timezone: "Europe/London",
  client_access: "client_groups",
  is_contractor: false,
  is_owner: false,
  archived_date: null,
  updated_at: "2026-11-18T08:30:00.000Z",
};

export const userListObject = component(z.object({ data: z.array(userObject) }), "UserList", { data: [userExample] });
export const userByEmailObject = component(
  z.object({
    data: userObject.nullable().describe("The matching user, or null when no user of the firm has the email"),
  }),
  "UserByEmail",
);

export type ListUsersQuery = z.output<typeof listUsersQuery>;
