import { apiRoute } from "@/lib/api/route";
import { tokenEndpoints } from "@/lib/tokens/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(tokenEndpoints.get);
