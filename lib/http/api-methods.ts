// A method the path lacks, whatever it is (TRACE, PROPFIND, QUERY, M-SEARCH, …), is a 405 JSON with `Allow`, judged
// before the token (decisions.md, Wire format). Route files answer the methods Next hands them (lib/api/route.ts);
// Next hands them only these, answers TRACE with a text 500 and any other with an empty 400, and answers a non-GET
// on /openapi.json with an empty 405: those are answered here, ahead of Next. The same methods elsewhere get the
// same treatment: JSON under /api (the health checks, sign-in's own routes), a plain 405 on pages.
import { underApiV1 } from "./api-path";

/** The methods Next routes to a route file's handlers. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const OPENAPI_PATH = "/api/v1/openapi.json";
const OPENAPI_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The JSON answer for a request under /api/v1 whose method no route file can answer, or null when Next may route it.
 * Async: the operations are loaded only when such a method comes.
 */
export async function refusedApiMethod(method: string, target: string): Promise<Response | null> {
  const path = target.split("?", 1)[0];
  if (!underApiV1(path)) return ROUTED_METHODS.has(method) ? null : refusedOutsideApiV1(path);
  if (path === OPENAPI_PATH) return OPENAPI_METHODS.has(method) ? null : methodNotAllowed("GET, HEAD");
  if (ROUTED_METHODS.has(method)) return null;
  const allow = await allowedMethods(path.slice("/api/v1".length));
  return allow ? methodNotAllowed(allow) : Response.json({ message: "Endpoint not found." }, { status: 404 });
}

/** Whether the front door must look at a request: a method Next does not route, or anything on /openapi.json. */
export const mayRefuseMethod = (method: string, target: string) =>
  !ROUTED_METHODS.has(method) || target.startsWith(OPENAPI_PATH);

/** The routes outside /api/v1 and the methods they answer (app/api/…): anything else under /api is no route. */
const OTHER_API_ROUTES: [RegExp, string][] = [
  [/^\/api\/(health|live)$/, "GET, HEAD"],
  [/^\/api\/auth\//, "GET, POST"],
  [/^\/api\/cron\/webhooks$/, "GET"],
];

/** A method Next does not route, outside /api/v1: JSON under /api (405, or 404 off its routes), plain text on pages. */
function refusedOutsideApiV1(path: string): Response {
  if (!/^\/api(\/|$)/.test(path)) {
    return new Response("Method not allowed.\n", {
      status: 405,
      headers: { Allow: "GET, HEAD, POST", "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const allow = OTHER_API_ROUTES.find(([route]) => route.test(path))?.[1];
  return allow ? methodNotAllowed(allow) : Response.json({ message: "Endpoint not found." }, { status: 404 });
}

const methodNotAllowed = (allow: string) =>
  Response.json(
    { message: `Method not allowed. This path accepts: ${allow}.` },
    { status: 405, headers: { Allow: allow } },
  );

/**
 * The methods of the operation path a request path is, as lib/api/route.ts lists them in `Allow` (its methods, then
 * OPTIONS), or null for a path that is no endpoint's. A fixed segment wins over a parameter (`/clients/search`).
 */
async function allowedMethods(path: string): Promise<string | null> {
  const { operations } = await import("@/lib/openapi/operations");
  const segments = path.split("/");
  const matches = (template: string) => {
    const parts = template.split("/");
    return parts.length === segments.length && parts.every((p, i) => p === segments[i] || /^\{\w+\}$/.test(p));
  };
  const templates = [...new Set(operations.map((op) => op.path))].filter(matches);
  const fixed = (template: string) => template.split("/").filter((p) => !p.startsWith("{")).length;
  const template = templates.sort((a, b) => fixed(b) - fixed(a))[0];
  if (!template) return null;
  const methods = operations.filter((op) => op.path === template).map((op) => op.method.toUpperCase());
  return [...methods, "OPTIONS"].join(", ");
}
