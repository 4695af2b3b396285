import { apiRoute } from "@/lib/api/route";
import { requestLogEndpoints } from "@/lib/request-log/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(requestLogEndpoints.list);
