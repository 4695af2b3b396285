// Builds the OpenAPI 3.1 document from the operation list and the zod schemas: no second, hand-kept copy.
// Schemas registered as components (lib/core/openapi-registry.ts) are named components: answers as output, request bodies as input.
import { z } from "zod";
import { validationFailed } from "@/lib/core/errors";
import { apiSchemas, component, requestBodies, wireSchemas } from "@/lib/core/openapi-registry";
import { accessRefusal, NO_ACCESS } from "@/lib/tokens/access";
import "@/lib/core/validation";
import { type Operation, operations } from "./operations";

type JsonSchema = Record<string, unknown>;

const COMPONENT = (id: string) => `#/components/schemas/${id}`;

/** Every error body names its request, as the X-Request-Id header does: the id to quote to support. */
const requestIdField = z.string().describe("The request's id, as in its X-Request-Id header");
const errorBody = component(
  z.object({
    message: z.string().describe("What went wrong, in words a person understands"),
    request_id: requestIdField,
  }),
  // Not `Error`: generated code would export a type that hides JavaScript's own Error.
  "ApiError",
);
const validationErrorBody = component(
  z.object({
    message: z.string(),
    errors: z
      .record(z.string(), z.array(z.string()))
      .describe("Each offending field (a dot path such as contact.email) with its messages"),
    request_id: requestIdField,
  }),
  "ValidationError",
);

const ERROR_RESPONSES: Record<number, [name: string, description: string]> = {
  400: ["BadRequest", "The body is not valid JSON, or not a JSON object"],
  401: ["Unauthenticated", "The token is missing, malformed, unknown or revoked, or its user is archived"],
  403: [
    "Forbidden",
    "The token's access does not cover the operation (x-token-access), or the role lacks the permission, or the " +
      "record belongs to another tenant or lies outside the caller's visibility",
  ],
  404: [
    "NotFound",
    "No such record (also for a malformed uuid), or a malformed path (a bad %-escape, an empty segment)",
  ],
  405: [
    "MethodNotAllowed",
    "The path is another endpoint's that does not take this method (e.g. PUT /clients/search); Allow lists those it takes",
  ],
  406: ["NotAcceptable", "The Accept header admits neither application/json nor */*"],
  413: ["PayloadTooLarge", "The body is larger than 1 MB"],
  414: ["UriTooLong", "The URL is longer than 16,384 characters"],
  409: ["Conflict", "A request with the same Idempotency-Key is still being processed; retry later"],
  415: ["UnsupportedMediaType", "The body's Content-Type is not JSON"],
  422: [
    "ValidationFailed",
    "The query or body is invalid, or the Idempotency-Key is malformed or was used with another method, path or body",
  ],
  429: ["TooManyRequests", "A rate limit is exceeded; Retry-After says how many seconds to wait"],
  503: [
    "ServiceUnavailable",
    "The database cannot be reached or is too slow, or the server is overloaded; Retry-After says when to try again",
  ],
};
const ALWAYS = [401, 406, 414, 429, 503];
// A path parameter can spell a malformed path (404) or another endpoint's fixed path (405: `/clients/search` as a uuid).
const WITH_PATH_PARAMS = [404, 405];

const TAGS: Record<string, string> = {
  Users: "The people of the firm, and the caller's own profile",
  Clients: "The firm's clients: businesses and people it works for",
  Contacts: "People at the clients",
  Jobs: "Work for clients: returns, accounts, payroll runs",
  "Time logs": "Time the firm's people spent on jobs",
  Webhooks: "Signed pushes of changes to the firm's integrations (Owners and Admins)",
  Tokens: "The calling personal access token",
};

/** The token access an operation needs, as `x-token-access` shows it: `{"clients": "read"}`, `{}` for none. */
const tokenAccessOf = (op: Operation) => (op.resource ? { [op.resource]: op.method === "get" ? "read" : "write" } : {});

export function describedWithAccess(op: Operation) {
  const needs = Object.entries(tokenAccessOf(op))
    .map(([resource, level]) => `Token access: ${level} on ${resource}.`)
    .join("");
  return [op.description, needs || "Needs no token access."].filter(Boolean).join(" ");
}

const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the current window", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Seconds until the window resets", schema: { type: "integer" } },
  // draft-ietf-httpapi-ratelimit-headers: every limit that applied, by name.
  "RateLimit-Policy": {
    description:
      'The limits that applied (draft-ietf-httpapi-ratelimit-headers): name, quota and window in seconds, e.g. `"token";q=300;w=60`',
    schema: { type: "string" },
  },
  RateLimit: {
    description:
      'What is left of each limit (draft-ietf-httpapi-ratelimit-headers): name, remaining and seconds to reset, e.g. `"token";r=299;t=42`',
    schema: { type: "string" },
  },
  "X-Request-Id": {
    description: "The request's id (also `request_id` in an error body): quote it when asking about a request",
    schema: { type: "string" },
  },
};
const headerRefs = Object.fromEntries(
  Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]),
);

// Idempotency-Key on every POST and PUT (lib/api/idempotency.ts): the request header, the replay's response header,
// and the answers only a key gives (409 in flight; 422 for a malformed or reused key).
const WRITE_METHODS = new Set(["post", "put"]);
const IDEMPOTENCY_ERRORS = [409, 422];
const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first answer to a key (below 500) is kept for 24 hours per token and replayed for the " +
    "same method, path and body, with Idempotent-Replayed: true, writing nothing again",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};
const IDEMPOTENT_REPLAYED_HEADER = {
  description: "true when this is the kept answer to an earlier request with the same Idempotency-Key",
  schema: { type: "string", enum: ["true"] },
};

/** A component or inline schema without the document-level keys zod adds. */
function clean(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== "$schema" && key !== "$id"));
}

/** What a wire schema keeps of the text schema it replaces. */
const ANNOTATIONS = new Set(["description", "default", "examples", "deprecated"]);

/**
 * zod's JSON Schema, adjusted for the wire: a query value documented as what it stands for (an integer, a boolean),
 * and an object with declared fields and any others (a client's custom fields) without `additionalProperties: {}`,
 * which JSON Schema allows anyway but which would make generated types accept any misspelt key.
 */
function toJsonSchema(schema: z.ZodType | typeof apiSchemas, io: "input" | "output", refs = true) {
  // One function for a schema and for the registries; zod's overloads take them apart.
  return z.toJSONSchema(schema as never, {
    io,
    unrepresentable: "any",
    ...(refs ? { uri: COMPONENT } : {}),
    override: ({ zodSchema, jsonSchema }) => {
      const wire = wireSchemas.get(zodSchema);
      if (wire) {
        for (const key of Object.keys(jsonSchema)) if (!ANNOTATIONS.has(key)) delete (jsonSchema as JsonSchema)[key];
        Object.assign(jsonSchema, clean(z.toJSONSchema(wire, { io: "output" }) as JsonSchema));
      }
      const additional = jsonSchema.additionalProperties;
      const anyValue = typeof additional === "object" && Object.keys(additional).every((key) => key === "description");
      if (jsonSchema.properties && anyValue) delete jsonSchema.additionalProperties;
    },
  }) as JsonSchema;
}

/**
 * A schema as JSON Schema: a $ref when it is a registered component, else inlined (as input or output). An inline
 * schema repeats the components inside it in full, so answers made of components are components themselves.
 */
function schemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const id = (io === "output" ? apiSchemas : requestBodies).get(schema)?.id;
  if (id) return { $ref: COMPONENT(id) };
  return clean(toJsonSchema(schema, io));
}

/** A schema as one self-contained JSON Schema, as the document would inline it: for the MCP tools (lib/mcp). */
export const standaloneJsonSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema =>
  clean(toJsonSchema(schema, io, false));

/** The first example of a schema (its `.meta({ examples })`; a union's first option's), for the media types. */
function exampleOf(schema: z.ZodType): unknown {
  if (schema instanceof z.ZodUnion) return exampleOf(schema.options[0] as z.ZodType);
  return (schema.meta()?.examples as unknown[] | undefined)?.[0];
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
  const write = WRITE_METHODS.has(op.method);
  const tokenRefusal = op.resource ? [403] : [];
  const errors = [
    ...new Set([
      ...op.errors,
      ...tokenRefusal,
      ...ALWAYS,
      ...(op.params ? WITH_PATH_PARAMS : []),
      ...(write ? IDEMPOTENCY_ERRORS : []),
    ]),
  ].sort();
  const example = op.response.example ?? (op.response.schema && exampleOf(op.response.schema));
  return {
    tags: [op.tag],
    summary: op.summary,
    description: describedWithAccess(op),
    operationId: op.id,
    "x-token-access": tokenAccessOf(op),
    parameters: [...parameters(op), ...(write ? [idempotencyKeyParameter] : [])],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: schemaOf(op.body, "input"), example: exampleOf(op.body) } },
          },
        }
      : {}),
    responses: {
      [op.response.status]: {
        description: op.response.description,
        headers: write
          ? { ...headerRefs, "Idempotent-Replayed": { $ref: "#/components/headers/Idempotent-Replayed" } }
          : headerRefs,
        ...(op.response.schema
          ? {
              content: {
                "application/json": {
                  schema: schemaOf(op.response.schema, "output"),
                  ...(example === undefined ? {} : { example }),
                },
              },
            }
          : {}),
      },
      ...Object.fromEntries(
        errors.map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status][0]}` }]),
      ),
    },
  };
}

// Made the way the API makes a 422, so the example cannot drift from the real answer.
const { message, errors } = validationFailed({
  name: ["Must not be empty."],
  "contact.email": ["Must be a valid email address."],
});
const EXAMPLE_REQUEST_ID = "0b7f3c2e-5d1a-4f6b-9c8e-2a4d6f8b1c3e";
const VALIDATION_EXAMPLE = { message, request_id: EXAMPLE_REQUEST_ID, errors };
/** A token-access refusal, worded by the same function as the real one. */
const FORBIDDEN_EXAMPLE = { message: accessRefusal(NO_ACCESS, "time_logs", "read"), request_id: EXAMPLE_REQUEST_ID };

/** The document; `serverUrl` is the API's absolute base URL (generated clients need one to run outside a browser). */
export function openApiDocument(serverUrl = "http://localhost:3000/api/v1") {
  // Registered schemas, as components referencing each other by $ref: answers as output, request bodies as input.
  const components = [toJsonSchema(apiSchemas, "output"), toJsonSchema(requestBodies, "input")] as unknown as {
    schemas: Record<string, JsonSchema>;
  }[];
  const schemas = Object.fromEntries(
    components.flatMap((c) => Object.entries(c.schemas)).map(([id, schema]) => [id, clean(schema)]),
  );
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
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl }],
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
        Allow: { description: "The methods the path takes", schema: { type: "string" } },
        "Idempotent-Replayed": IDEMPOTENT_REPLAYED_HEADER,
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
              ...(status === "405" ? { Allow: { $ref: "#/components/headers/Allow" } } : {}),
            },
            content: {
              "application/json":
                status === "422"
                  ? { schema: schemaOf(validationErrorBody, "output"), example: VALIDATION_EXAMPLE }
                  : {
                      schema: schemaOf(errorBody, "output"),
                      ...(status === "403" ? { example: FORBIDDEN_EXAMPLE } : {}),
                    },
            },
          },
        ]),
      ),
    },
  };
}
