// The MCP tools: each is a REST endpoint that names one in its declaration (lib/api/endpoint.ts, `tool`), so the
// tool's name, description and schemas come from the same declaration as the route and its OpenAPI operation, and a
// call runs through the route's own wrapper (serveEndpoint, lib/api/route.ts) with no HTTP hop: token access, role
// permission, record visibility, validation, idempotency, rate limits and the request log, in the route's order.
import type { CallToolResult, ListToolsResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { AnyEndpointDeclaration } from "@/lib/api/endpoint";
import { serveEndpoint } from "@/lib/api/route";
import type { Caller } from "@/lib/auth/caller";
import { newRequestId, REQUEST_ID_HEADER } from "@/lib/observability/request-id";
import { describedWithAccess, standaloneJsonSchema } from "@/lib/openapi/document";
import { operations } from "@/lib/openapi/operations";
import { accessRefusal } from "@/lib/tokens/access";

type JsonSchema = Record<string, unknown>;
type ToolDefinition = ListToolsResult["tools"][number];
type ObjectSchema = ToolDefinition["inputSchema"];
type Arguments = Record<string, unknown>;

export interface Tool {
  name: string;
  endpoint: AnyEndpointDeclaration;
}

/** Every tool, in the order the OpenAPI document lists its endpoint: `tools/list` is always in this order. */
export const TOOLS: readonly Tool[] = operations.flatMap((endpoint) =>
  endpoint.tool ? [{ name: endpoint.tool, endpoint }] : [],
);

const needed = (endpoint: AnyEndpointDeclaration) => (endpoint.method === "get" ? "read" : "write");

/**
 * Whether the caller may call the tool at all: its token's access and its role's permission, as the route judges
 * them first. Only these are listed; a call of another tool still runs the route's checks, which refuse it.
 */
export function toolAllowed(tool: Tool, caller: Pick<Caller, "tokenAccess" | "permissions">) {
  const { resource, permission } = tool.endpoint;
  return (
    (!resource || !accessRefusal(caller.tokenAccess, resource, needed(tool.endpoint))) &&
    (!permission || caller.permissions.has(permission))
  );
}

/** The tools the caller may call, in the fixed order. */
export function toolsFor(caller: Pick<Caller, "tokenAccess" | "permissions">) {
  return TOOLS.filter((tool) => toolAllowed(tool, caller));
}

/** The tool's input: its path parameters, query parameters and body fields as one object, as the document has them. */
function inputSchema({ params, query, body }: AnyEndpointDeclaration): ObjectSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (name: string, schema: z.ZodType, isRequired: boolean) => {
    properties[name] = standaloneJsonSchema(schema, "input");
    if (isRequired) required.push(name);
  };
  for (const [name, schema] of Object.entries(params ?? {})) add(name, schema, true);
  for (const [name, schema] of Object.entries(query?.shape ?? {}))
    add(name, schema, !schema.safeParse(undefined).success);
  if (body) {
    const shape = standaloneJsonSchema(body, "input") as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    Object.assign(properties, shape.properties);
    required.push(...(shape.required ?? []));
  }
  return {
    type: "object",
    properties: properties as ObjectSchema["properties"],
    ...(required.length ? { required } : {}),
  };
}

const annotationsOf = (endpoint: AnyEndpointDeclaration) => {
  const read = endpoint.method === "get";
  const update = endpoint.method === "put";
  return {
    title: endpoint.summary,
    readOnlyHint: read,
    ...(read ? {} : { destructiveHint: update, idempotentHint: update }),
    openWorldHint: false,
  };
};

/** A tool as `tools/list` describes it. */
export function toolDefinition({ name, endpoint }: Tool): ToolDefinition {
  const output = endpoint.response.schema;
  return {
    name,
    title: endpoint.summary,
    description: `${endpoint.summary}. ${describedWithAccess(endpoint)}`,
    inputSchema: inputSchema(endpoint),
    // Every answer with a body is a JSON object: a record, or a list's envelope (a union of the page shapes, which
    // MCP wants said to be an object at its top).
    ...(output ? { outputSchema: { type: "object", ...standaloneJsonSchema(output, "output") } as ObjectSchema } : {}),
    annotations: annotationsOf(endpoint),
  };
}

/** The REST request a call stands for: the path with its parameters, the query string, and the body. */
function restRequest(endpoint: AnyEndpointDeclaration, args: Arguments, envelope: Request) {
  const params: Record<string, string> = {};
  let path = endpoint.path;
  for (const name of Object.keys(endpoint.params ?? {})) {
    const value = args[name] == null ? "" : String(args[name]);
    params[name] = value;
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  const url = new URL(`/api/v1${path}`, envelope.url);
  for (const name of Object.keys(endpoint.query?.shape ?? {})) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(`${name}[]`, String(item));
    else url.searchParams.set(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  let body: string | undefined;
  if (endpoint.body) {
    const fields = new Set([...Object.keys(endpoint.params ?? {}), ...Object.keys(endpoint.query?.shape ?? {})]);
    body = JSON.stringify(Object.fromEntries(Object.entries(args).filter(([name]) => !fields.has(name))));
  }
  return { url, params, body };
}

/**
 * The headers the endpoint's request carries: the caller's token, user agent and forwarding headers (for its address),
 * and a request id of its own, so that each call has its own entry in the token's request log.
 */
function restHeaders(envelope: Request, hasBody: boolean): Headers {
  const headers = new Headers();
  for (const name of ["authorization", "user-agent", "x-forwarded-for", "x-real-ip", "forwarded"]) {
    const value = envelope.headers.get(name);
    if (value) headers.set(name, value);
  }
  headers.set("accept", "application/json");
  headers.set(REQUEST_ID_HEADER, newRequestId());
  if (hasBody) headers.set("content-type", "application/json");
  return headers;
}

type ToolResult = CallToolResult;

/**
 * Calls a tool as its REST request, through the route's wrapper: the answer's JSON is the result (structured, and as
 * text); a refusal is a tool error carrying the REST body (message, field errors, request id).
 */
export async function callTool(tool: Tool, args: Arguments, envelope: Request): Promise<ToolResult> {
  const { endpoint } = tool;
  const { url, params, body } = restRequest(endpoint, args, envelope);
  const headers = restHeaders(envelope, body !== undefined);
  const request = new Request(url, { method: endpoint.method.toUpperCase(), headers, body });
  const response = await serveEndpoint(endpoint, request, params, {
    audience: "mcp",
    channel: { via: "mcp", tool: tool.name },
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  const requestId = response.headers.get("x-request-id");
  const result: ToolResult = {
    content: [{ type: "text", text: text || "{}" }],
    _meta: { "cjt/request_id": requestId, "cjt/status": response.status },
  };
  if (response.status >= 400) return { ...result, isError: true };
  return { ...result, structuredContent: json };
}

export const findTool = (name: string) => TOOLS.find((tool) => tool.name === name);
