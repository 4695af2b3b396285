// GET /api/health: for load balancers, uptime checks and deploy steps. No token, outside /api/v1 and its wrapper,
// so that it answers even when the API's own machinery (tokens, rate limits) cannot. Always JSON, never cached.

import { logError } from "@/lib/core/log";
import { healthReport } from "@/lib/health";
import { observeApiRequest } from "@/lib/observability/api-request";

export const dynamic = "force-dynamic";

const answer = (body: object, status: number) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

export const GET = (request: Request) => observeApiRequest(request, check);

async function check() {
  try {
    const report = await healthReport();
    return answer(report, report.status === "ok" ? 200 : 503);
  } catch (error) {
    logError("Health check failed", error);
    return answer({ status: "unavailable" }, 503);
  }
}
