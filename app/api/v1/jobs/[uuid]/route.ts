import { apiRoute } from "@/lib/api/route";
import { jobEndpoints } from "@/lib/jobs/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(jobEndpoints.get, jobEndpoints.update);
