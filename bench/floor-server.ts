// The floor the app is measured against: a bare node:http server with a pg pool, no framework and no ORM, that
// answers GET /api/v1/clients?limit=&page= (sorted by name) and GET /api/v1/time-logs?range=&per_page=&page= with
// the statements the app sends (its Prisma queries as read from the PostgreSQL log, and the app's own statements
// for what a page of clients or time logs refers to), and the app's own serializers and pagination envelope, so the
// JSON is the same. It authenticates the bearer token in one query and skips what the app adds on top (rate limits,
// validation, visibility rules, last-used stamps): the gap is the framework's cost.
// Usage: DATABASE_URL=... PORT=3401 tsx bench/floor-server.ts
import http from "node:http";
import pg from "pg";
import { paginated } from "@/lib/api/pagination";
import { DEFAULT_CLIENT_PAGE_SIZE } from "@/lib/clients/queries";
import { clientRelationsSql, NO_RELATIONS, relationsById } from "@/lib/clients/relations";
import { serializeClient } from "@/lib/clients/serialize";
import { parseDateRange, resolveDateRange } from "@/lib/core/date-ranges";
import { type Page, pageOf } from "@/lib/core/pagination";
import { DEFAULT_TIME_LOG_PAGE_SIZE } from "@/lib/time-logs/queries";
import { timeLogRelationsSql, withRelations } from "@/lib/time-logs/relations";
import { serializeTimeLog } from "@/lib/time-logs/serialize";
import { hashToken } from "@/lib/tokens";

const DATE_OID = 1082;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10), // the app's pool size
  // Prisma reads a DATE as midnight UTC; pg's default would use the process's time zone.
  types: {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === DATE_OID
        ? (v: string) => new Date(`${v}T00:00:00Z`)
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  },
});

interface Viewer {
  tenantId: number;
  timezone: string;
}

async function authenticate(request: http.IncomingMessage): Promise<Viewer | null> {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1];
  if (!token) return null;
  const { rows } = await pool.query(
    `SELECT u.tenant_id AS "tenantId", u.timezone FROM api_tokens t JOIN users u ON (u.tenant_id, u.id) = (t.tenant_id, t.user_id)
     WHERE t.token_hash = $1 AND u.archived_date IS NULL`,
    [hashToken(token)],
  );
  return rows[0] ?? null;
}

const query = (sql: string, params: unknown[]) => pool.query(sql, params).then((r) => r.rows);
async function listClients(viewer: Viewer, url: URL) {
  const page = pageFromUrl(url, DEFAULT_CLIENT_PAGE_SIZE);
  const { tenantId } = viewer;
  const [[{ count }], clients, fields] = await Promise.all([
    query(`SELECT COUNT(*)::int AS count FROM clients WHERE is_archived = false AND tenant_id = $1`, [tenantId]),
    query(
      `SELECT id, uuid, name, client_ref AS "clientRef", reg_number AS "regNumber", website, state, city,
              street_address AS "streetAddress", postal_code AS "postalCode", year_end AS "yearEnd", is_archived AS "isArchived",
              client_status::text AS "clientStatus", created_at AS "createdAt"
       FROM clients WHERE is_archived = false AND tenant_id = $1 ORDER BY name ASC, uuid ASC LIMIT $2 OFFSET $3`,
      [tenantId, page.take, page.skip],
    ),
    query(
      `SELECT id, name, type::text, options FROM custom_fields WHERE tenant_id = $1 ORDER BY position ASC, id ASC`,
      [tenantId],
    ),
  ]);
  const relationsSql = clientRelationsSql(
    tenantId,
    clients.map((c) => c.id),
  );
  const relations = relationsById(await query(relationsSql.text, relationsSql.values), () => true);
  const rows = clients.map((c) => ({ ...c, relations: relations.get(c.id) ?? NO_RELATIONS, customFields: fields }));
  return paginated(new Request(url), { page, total: count, rows }, serializeClient);
}

async function listTimeLogs(viewer: Viewer, url: URL) {
  const page = pageFromUrl(url, DEFAULT_TIME_LOG_PAGE_SIZE);
  const spec = parseDateRange(url.searchParams.get("range") ?? ",");
  if (!spec) return null;
  const { from, to } = resolveDateRange(spec, viewer.timezone);
  const where = `tenant_id = $1 AND ($2::date IS NULL OR date >= $2) AND ($3::date IS NULL OR date <= $3)`;
  const params = [viewer.tenantId, from ?? null, to ?? null];
  const [[{ count }], logs] = await Promise.all([
    query(`SELECT COALESCE(SUM(count), 0)::int AS count FROM time_log_day_counts WHERE ${where}`, params),
    query(
      `SELECT uuid, note, minutes, date, created_at AS "createdAt", updated_at AS "updatedAt", client_id AS "clientId",
              job_id AS "jobId", user_id AS "userId"
       FROM time_logs WHERE ${where} ORDER BY date DESC, created_at DESC, uuid ASC LIMIT $4 OFFSET $5`,
      [...params, page.take, page.skip],
    ),
  ]);
  const relationsSql = timeLogRelationsSql(viewer.tenantId, logs);
  const [relations] = logs.length
    ? await query(relationsSql.text, relationsSql.values)
    : [{ clients: [], jobs: [], users: [] }];
  return paginated(new Request(url), { page, total: count, rows: withRelations(logs, relations) }, serializeTimeLog);
}

function pageFromUrl(url: URL, defaultSize: number): Page {
  const number = (name: string) => (url.searchParams.has(name) ? Number(url.searchParams.get(name)) : undefined);
  return pageOf({ page: number("page"), limit: number("limit"), per_page: number("per_page") }, defaultSize);
}

const ROUTES: Record<string, (viewer: Viewer, url: URL) => Promise<unknown>> = {
  "/api/v1/clients": listClients,
  "/api/v1/time-logs": listTimeLogs,
};

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

const server = http.createServer(async (request, response) => {
  try {
    const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
    const route = ROUTES[url.pathname];
    if (!route || request.method !== "GET") return send(response, 404, { message: "Not found" });
    const viewer = await authenticate(request);
    if (!viewer) return send(response, 401, { message: "Unauthenticated" });
    const body = await route(viewer, url);
    send(response, body ? 200 : 422, body ?? { message: "Invalid query" });
  } catch (error) {
    console.error(error);
    send(response, 500, { message: "Server error" });
  }
});

const port = Number(process.env.PORT ?? 3401);
server.listen(port, "127.0.0.1", () => console.log(`floor server on http://127.0.0.1:${port}`));
