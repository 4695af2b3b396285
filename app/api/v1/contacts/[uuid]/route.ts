import { pathUuid } from "@/lib/api/records";
import { apiRoute } from "@/lib/api/route";
import { parseInput } from "@/lib/api/validation";
import { updateContact } from "@/lib/contacts/mutations";
import { getContact } from "@/lib/contacts/queries";
import { updateContactSchema } from "@/lib/contacts/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute<{ uuid: string }>({
  GET: async ({ caller, params }) => getContact(caller, pathUuid(params.uuid, "contact")),
  PUT: async ({ caller, params, body }) =>
    updateContact(caller, pathUuid(params.uuid, "contact"), parseInput(updateContactSchema, body)),
});
