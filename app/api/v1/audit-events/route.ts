import { apiRoute } from "@/lib/api/route";
import { auditEndpoints } from "@/lib/audit/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(auditEndpoints.list);
