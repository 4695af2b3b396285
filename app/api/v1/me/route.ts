import { apiRoute } from "@/lib/api/route";
import { userEndpoints } from "@/lib/users/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(userEndpoints.me);
