// Every endpoint of the API, in the order the OpenAPI document lists them. Each is declared once, in its resource's
// folder (lib/<resource>/endpoints.ts, lib/api/endpoint.ts), and the route files under app/api/v1 serve the same
// declarations: lib/openapi/document.ts turns this list into the document, and a test checks that every route file
// answers exactly the methods the document lists for its path.
import type { AnyEndpointDeclaration } from "@/lib/api/endpoint";
import { auditEndpoints } from "@/lib/audit/endpoints";
import { clientEndpoints } from "@/lib/clients/endpoints";
import { contactEndpoints } from "@/lib/contacts/endpoints";
import { jobEndpoints } from "@/lib/jobs/endpoints";
import { requestLogEndpoints } from "@/lib/request-log/endpoints";
import { timeLogEndpoints } from "@/lib/time-logs/endpoints";
import { tokenEndpoints } from "@/lib/tokens/endpoints";
import { userEndpoints } from "@/lib/users/endpoints";
import { webhookEndpoints } from "@/lib/webhooks/endpoints";

export type Operation = AnyEndpointDeclaration;

export const operations: Operation[] = [
  userEndpoints.me,
  tokenEndpoints.get,
  requestLogEndpoints.list,
  clientEndpoints.list,
  clientEndpoints.create,
  clientEndpoints.search,
  clientEndpoints.get,
  clientEndpoints.update,
  contactEndpoints.list,
  contactEndpoints.create,
  contactEndpoints.get,
  contactEndpoints.update,
  jobEndpoints.list,
  jobEndpoints.create,
  jobEndpoints.get,
  jobEndpoints.update,
  userEndpoints.list,
  userEndpoints.get,
  userEndpoints.byEmail,
  timeLogEndpoints.list,
  ...Object.values(webhookEndpoints),
  auditEndpoints.list,
];
