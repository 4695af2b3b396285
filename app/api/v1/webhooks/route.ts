import { apiRoute } from "@/lib/api/route";
import { webhookEndpoints } from "@/lib/webhooks/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(webhookEndpoints.list, webhookEndpoints.create);
