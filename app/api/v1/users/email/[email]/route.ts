import { jsonText } from "@/lib/api/pagination";
import { apiRoute, endpoint } from "@/lib/api/route";
import { userByEmailJson } from "@/lib/users/queries";
import { pathEmail } from "@/lib/users/schemas";

// No match is not an error (spec): `{"data": null}`, also when only another tenant has the email.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute("users", {
  GET: endpoint({
    handler: async ({ caller, params }) =>
      jsonText(`{"data":${(await userByEmailJson(caller, pathEmail(params.email))) ?? "null"}}`),
  }),
});
