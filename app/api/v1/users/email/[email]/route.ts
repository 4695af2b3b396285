import { apiRoute, endpoint } from "@/lib/api/route";
import { findUserByEmail } from "@/lib/users/queries";
import { pathEmail } from "@/lib/users/schemas";
import { serializeUser } from "@/lib/users/serialize";

// No match is not an error (spec): `{"data": null}`, also when only another tenant has the email.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("users", {
  GET: endpoint({
    handler: async ({ caller, params }) => {
      const user = await findUserByEmail(caller, pathEmail(params.email));
      return { data: user ? serializeUser(user) : null };
    },
  }),
});
