// Vercel Cron (vercel.json) calls this every minute with `Authorization: Bearer <CRON_SECRET>`: it sends the
// webhook deliveries that are due (retries, and anything the after-response attempt missed) and prunes old ones
// (and audit entries past AUDIT_RETENTION_DAYS). A database outage is the API's JSON 503 with Retry-After, like
// every other answer of the app's JSON routes.

import { errorResponse } from "@/lib/api/error-response";
import { faultAnswer } from "@/lib/api/unavailable";
import { pruneAuditEvents } from "@/lib/audit/mutations";
import { isCronAuthorized } from "@/lib/webhooks/cron";
import { deliverAllDue, pruneDeliveries } from "@/lib/webhooks/dispatch";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

export async function GET(request: Request) {
  if (!isCronAuthorized(request.headers.get("authorization")))
    return Response.json({ message: "Unauthenticated: send 'Authorization: Bearer <CRON_SECRET>'." }, { status: 401 });
  try {
    const result = await deliverAllDue({ budgetMs: 40_000 });
    const pruned = await pruneDeliveries();
    const auditPruned = await pruneAuditEvents();
    return Response.json({ ...result, pruned, audit_pruned: auditPruned });
  } catch (error) {
    return errorResponse(faultAnswer(error) ?? error);
  }
}
