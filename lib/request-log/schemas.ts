// A token's request log on the wire: the list query of GET /api/v1/token/requests (also the settings page's) and an
// entry's shape, the single source for the handler and the OpenAPI document.
import { z } from "zod";
import { component } from "@/lib/core/openapi-registry";
import { paginationQuery } from "@/lib/core/pagination";

/** Status classes a log is filtered by; `error` is every 4xx and 5xx. */
export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx", "error"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export const listTokenRequestsQuery = z.object({
  ...paginationQuery,
  status_class: z
    .enum(STATUS_CLASSES)
    .optional()
    .describe("Only requests answered with this class of status; error: every 4xx and 5xx"),
});
export type ListTokenRequestsQuery = z.output<typeof listTokenRequestsQuery>;

export const tokenRequestObject = component(
  z
    .object({
      id: z.number().int(),
      created_at: z.string().describe("When the request was answered (ISO 8601 UTC)"),
      request_id: z.string().describe("The X-Request-Id the answer carried"),
      method: z.string(),
      path: z.string().describe("The path requested, without its query"),
      status: z.number().int(),
      duration_ms: z.number().int(),
      message: z.string().nullable().describe("For a 4xx, the error message the caller got; else null"),
      errors: z
        .record(z.string(), z.array(z.string()))
        .nullable()
        .describe("For a 422, the field errors the caller got; else null"),
    })
    .meta({
      examples: [
        {
          id: 4812,
          created_at: "2026-11-21T03:12:09.412Z",
          request_id: "0b7f3c2e-5d1a-4f6b-9c8e-2a4d6f8b1c3e",
          method: "POST",
          path: "/api/v1/clients",
          status: 422,
          duration_ms: 18,
          message: "The given data was invalid. name: Must not be empty.",
          errors: { name: ["Must not be empty."] },
        },
      ],
    }),
  "TokenRequest",
);
export type TokenRequestWire = z.infer<typeof tokenRequestObject>;
