import { apiRoute } from "@/lib/api/route";
import { clientEndpoints } from "@/lib/clients/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(clientEndpoints.search);
