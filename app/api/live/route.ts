// GET /api/live: liveness, for an orchestrator deciding whether to restart the process. It answers as long as the
// server handles requests, touching nothing else (no database, no Redis): /api/health is the readiness check.
// It is also the benchmark's framework floor: the cost of a route handler of this app that does no work.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
