// Builds the OpenAPI 3.1 document from the operation list and the zod schemas: no second, hand-kept copy.
// Schemas registered as components (lib/openapi/registry.ts) are named components; request schemas are inlined as their input.
import { z } from "zod";
import { apiSchemas, component } from "./registry";
import "@/lib/core/validation";
import { type Operation, operations } from "./operations";

type JsonSchema = Record<string, unknown>;

const COMPONENT = (id: string) => `#/components/schemas/${id}`;

const errorBody = component(
  z.object({ message: z.string().describe("What went wrong, in words a person understands") }),
  "Error",
);
const validationErrorBody = component(
  z.object({
    message: z.string(),
    errors: z
      .record(z.string(), z.array(z.string()))
      .describe("Each offending field (a dot path such as contact.email) with its messages"),
  }),
  "ValidationError",
);

const ERROR_RESPONSES: Record<number, [name: string, description: string]> = {
  400: ["BadRequest", "The body is not valid JSON, or not a JSON object"],
  401: ["Unauthenticated", "The token is missing, malformed, unknown or revoked, or its user is archived"],
  403: [
    "Forbidden",
    "The record belongs to another tenant or lies outside the caller's visibility, or the role lacks the permission",
  ],
  404: ["NotFound", "No such record (also for a malformed uuid)"],
  406: ["NotAcceptable", "The Accept header admits neither application/json nor */*"],
  413: ["PayloadTooLarge", "The body is larger than 1 MB"],
  415: ["UnsupportedMediaType", "The body's Content-Type is not JSON"],
  422: ["ValidationFailed", "The query or body is invalid"],
  429: ["TooManyRequests", "A rate limit is exceeded; Retry-After says how many seconds to wait"],
  503: [
    "ServiceUnavailable",
    "The database cannot be reached or is too slow, or the server is overloaded; Retry-After says when to try again",
  ],
};
const ALWAYS = [401, 406, 429, 503];

const TAGS: Record<string, string> = {
  Users: "The people of the firm, and the caller's own profile",
  Clients: "The firm's clients: businesses and people it works for",
  Contacts: "People at the clients",
  Jobs: "Work for clients: returns, accounts, payroll runs",
  "Time logs": "Time the firm's people spent on jobs",
  Webhooks: "Signed pushes of changes to the firm's integrations (Owners and Admins)",
};

const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the current window", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the window resets", schema: { type: "integer" } },
};
const headerRefs = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]),
);

/** A component or inline schema without the document-level keys zod adds. */
function clean(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== "$schema" && key !== "$id"));
}

/** A schema as JSON Schema: a $ref when it is a registered component, else inlined (as input or output). */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const id = apiSchemas.get(schema)?.id;
  if (id && io === "output") return { $ref: COMPONENT(id) };
  return clean(z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema);
}

function parameters(op: Operation) {
  const path = Object.entries(op.params ?? {}).map(([name, schema]) => ({
    name,
    in: "path",
    required: true,
    schema: schemaOf(schema, "input"),
  }));
  const query = Object.entries(op.query?.shape ?? {}).map(([name, field]) => {
    const schema = schemaOf(field as z.ZodType, "input");
    const { description, ...rest } = schema;
    const isList = rest.type === "array";
    return {
      name: isList ? `${name}[]` : name,
      in: "query",
      required: !(field as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
      ...(isList ? { style: "form", explode: true } : {}),
    };
  });
  return [...path, ...query];
}

function operationObject(op: Operation) {
  const errors = [...new Set([...op.errors, ...ALWAYS])].sort();
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, "By_$1").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    parameters: parameters(op),
    ...(op.body
      ? { requestBody: { required: true, content: { "application/json": { schema: schemaOf(op.body, "input") } } } }
      : {}),
    responses: {
      [op.response.status]: {
        description: op.response.description,
        headers: headerRefs,
        ...(op.response.schema
          ? { content: { "application/json": { schema: schemaOf(op.response.schema, "output") } } }
          : {}),
      },
      ...Object.fromEntries(
        errors.map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` }]),
      ),
    },
  };
}

export function openApiDocument() {
  // Registered (output) schemas, as components; referencing each other by $ref.
  const registered = z.toJSONSchema(apiSchemas, { io: "output", unrepresentable: "any", uri: COMPONENT }) as {
    schemas: Record<string, JsonSchema>;
  };
  const schemas = Object.fromEntries(Object.entries(registered.schemas).map(([id, s]) => [id, clean(s)]));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);

  return {
    openapi: "3.1.0",
    info: {
      title: "Client, Job and Time Tracking API",
      version: "1.0.0",
      description:
        "Clients, contacts, jobs, users and time logs of one firm (tenant). Every request carries a personal access token " +
        "as `Authorization: Bearer <token>` and acts as the token's user, within that user's tenant and permissions.",
      license: { name: "Proprietary" },
    },
    servers: [{ url: "/api/v1" }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "A personal access token (`cjt_…`), created at /settings/api-tokens",
        },
      },
      schemas,
      headers: {
        ...RATE_LIMIT_HEADERS,
        "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 1 } },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, [name, description]]) => [
          name,
          {
            description,
            headers: {
              ...headerRefs,
              ...(status === "429" || status === "503"
                ? { "Retry-After": { $ref: "#/components/headers/Retry-After" } }
                : {}),
            },
            content: {
              "application/json": { schema: schemaOf(status === "422" ? validationErrorBody : errorBody, "output") },
            },
          },
        ]),
      ),
    },
  };
}
