import { apiRoute } from "@/lib/api/route";
import { findUserByEmail } from "@/lib/users/queries";
import { pathEmail } from "@/lib/users/schemas";
import { serializeUser } from "@/lib/users/serialize";

// No match is not an error (spec): `{"data": null}`, also when only another tenant has the email.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute<{ email: string }>({
  GET: async ({ params, caller }) => {
    const user = await findUserByEmail(caller.db, pathEmail(params.email));
    return { data: user ? serializeUser(user) : null };
  },
});
