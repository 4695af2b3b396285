// Input and output shapes of the users endpoints.
import { z } from "zod";
import { notFound } from "@/lib/api/errors";
import { component } from "@/lib/openapi/registry";

export const userListQuery = z.object({
  search: z.string().max(200).optional().describe("Matches first name, last name or email, case-insensitively; every word must match"),
});

/** A user id in a path: a positive whole number; anything else names no user (404), like a malformed uuid. */
export function pathUserId(value: string | string[] | undefined): number {
  if (typeof value !== "string" || !/^[1-9]\d{0,8}$/.test(value)) throw notFound("User");
  return Number(value);
}

/** The email of `/users/email/{email}`. Next has already decoded the path segment once; decoding again would be wrong. */
export function pathEmail(value: string | string[] | undefined): string {
  return typeof value === "string" ? value.trim() : "";
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
