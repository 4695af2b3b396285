// Calls route handlers in-process, as Next would, and reads their answers.
import { prisma } from "@/lib/db/client";
import { createApiToken } from "@/lib/tokens";
import type { TokenAccess } from "@/lib/tokens/access";
import { assertMatchesContract } from "./contract";

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", Handler>>;

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is, without JSON encoding. */
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string | string[]>;
}

export interface ApiResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The body as sent, before parsing. */
  text: string;
}

export async function call<T = any>(
  route: RouteModule,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const request = new Request(new URL(path, "http://localhost/api/v1/"), { method, headers, body });
  const handler = route[method as keyof RouteModule];
  if (!handler) throw new Error(`The route has no ${method} export`);
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  const result = { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
  assertMatchesContract(method, new URL(request.url).pathname, result.status, result.body);
  withoutRequestId(result);
  return result;
}

/**
 * Every answer carries X-Request-Id, and an error's body the same id as `request_id` (decisions.md, Wire format):
 * checked here for every call, then taken out of the body so that tests compare the rest.
 */
function withoutRequestId(result: { status: number; headers: Headers; body: unknown }) {
  const id = result.headers.get("x-request-id");
  if (!id) throw new Error("The answer has no X-Request-Id header");
  if (result.status < 400 || !result.body || typeof result.body !== "object") return;
  const body = result.body as { request_id?: unknown };
  if (body.request_id !== id) throw new Error(`The error body's request_id ${body.request_id} is not ${id}`);
  delete body.request_id;
}

const tokens = new Map<string, string>();

/** A fresh token of a demo user (by email, in the tenant that has it; pass the tenant name when ambiguous). */
export async function tokenFor(email: string): Promise<string> {
  const cached = tokens.get(email);
  if (cached) return cached;
  const client = await prisma();
  const user = await client.user.findFirstOrThrow({ where: { email } });
  const { token } = await createApiToken(client, { tenantId: user.tenantId, userId: user.id }, `test ${email}`);
  tokens.set(email, token);
  return token;
}

const tokensWithAccess = new Map<string, string>();
/** A token of the demo user with exactly this access (one per user, access and name). */
export async function tokenWithAccess(email: string, access: TokenAccess, name = "access"): Promise<string> {
  const key = `${email} ${JSON.stringify(access)} ${name}`;
  if (!tokensWithAccess.has(key)) {
    const user = await userByEmail(email);
    const { token } = await createApiToken(await prisma(), { tenantId: user.tenantId, userId: user.id }, name, {
      access,
    });
    tokensWithAccess.set(key, token);
  }
  return tokensWithAccess.get(key)!;
}

export async function userByEmail(email: string) {
  return (await prisma()).user.findFirstOrThrow({ where: { email } });
}

/** Row counts of the tables a write could touch: equal before and after means nothing changed. One query. */
export async function tableCounts() {
  const tables = [
    "clients",
    "contacts",
    "client_contacts",
    "client_tags",
    "client_group_members",
    "custom_field_values",
    "jobs",
    "job_assignees",
    "job_followers",
    "job_tags",
    "time_logs",
    // A rejected write records no webhook event either (the outbox shares the write's transaction).
    "webhook_endpoints",
    "webhook_events",
    "webhook_deliveries",
    // Nor an audit entry (written in the write's transaction too).
    "audit_events",
  ];
  const [row] = await (await prisma()).$queryRawUnsafe<Record<string, number>[]>(
    `SELECT ${tables.map((t) => `(SELECT count(*)::int FROM "${t}") AS "${t}"`).join(", ")}`,
  );
  return row;
}

export async function tenantByName(name: string) {
  return (await prisma()).tenant.findFirstOrThrow({ where: { name } });
}
