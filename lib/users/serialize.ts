// Wire shapes of users.
import type { z } from "zod";
import type { profileObject } from "./schemas";

/** GET /me: exactly the profile fields of the spec. Only active users can authenticate, so `active` is true. */
export function serializeProfile(user: { id: number; firstname: string; lastname: string; email: string; timezone: string }): z.output<typeof profileObject> {
  return {
    id: user.id,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    fullname: `${user.firstname} ${user.lastname}`,
    timezone: user.timezone,
    active: true,
  };
}
