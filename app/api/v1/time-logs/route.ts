import { apiRoute } from "@/lib/api/route";
import { timeLogEndpoints } from "@/lib/time-logs/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(timeLogEndpoints.list);
