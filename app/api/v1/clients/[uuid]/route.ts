import { pathUuid } from "@/lib/api/records";
import { apiRoute } from "@/lib/api/route";
import { parseInput } from "@/lib/api/validation";
import { updateClient } from "@/lib/clients/mutations";
import { getClient } from "@/lib/clients/queries";
import { updateClientSchema } from "@/lib/clients/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute<{ uuid: string }>({
  GET: async ({ caller, params }) => getClient(caller, pathUuid(params.uuid, "client")),
  PUT: async ({ caller, params, body }) =>
    updateClient(caller, pathUuid(params.uuid, "client"), parseInput(updateClientSchema, body)),
});
