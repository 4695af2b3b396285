import { apiRoute } from "@/lib/api/route";
import { contactEndpoints } from "@/lib/contacts/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(contactEndpoints.list, contactEndpoints.create);
