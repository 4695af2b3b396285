import { z } from "zod";
import { component } from "@/lib/openapi/registry";

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
