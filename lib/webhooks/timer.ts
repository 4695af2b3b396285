// On one machine (no cron), an in-process timer works off due retries; started from instrumentation.ts, never on
// a serverless host (VERCEL set: the cron route does it there) and not with WEBHOOKS_TIMER=off.
import { pruneAuditEvents } from "@/lib/audit/mutations";
import { logError } from "@/lib/core/log";
import { deliverAllDue, pruneDeliveries } from "./dispatch";

const state = globalThis as { __cjtWebhookTimer?: NodeJS.Timeout };

export function startWebhookTimer(intervalMs = Number(process.env.WEBHOOKS_POLL_MS || 5_000)) {
  if (state.__cjtWebhookTimer || process.env.VERCEL || process.env.WEBHOOKS_TIMER === "off") return;
  let running = false;
  let lastPrune = 0;
  let lastError = 0;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await deliverAllDue();
      if (Date.now() - lastPrune > 3600_000) {
        lastPrune = Date.now();
        await pruneDeliveries();
        await pruneAuditEvents();
      }
    } catch (error) {
      // A database outage fails every pass: said once a minute, not every few seconds.
      if (Date.now() - lastError > 60_000) {
        lastError = Date.now();
        logError("Webhook delivery pass failed (retried every few seconds; next report in a minute)", error);
      }
    } finally {
      running = false;
    }
  };
  state.__cjtWebhookTimer = setInterval(tick, intervalMs);
  state.__cjtWebhookTimer.unref();
}

export function stopWebhookTimer() {
  clearInterval(state.__cjtWebhookTimer);
  state.__cjtWebhookTimer = undefined;
}
