// The audit entries of webhook endpoints: created, updated, deleted, tested, secret rotated, and disabled by the
// delivery runner.
import { changesBetween } from "@/lib/audit/entries";
import type { AuditEntry } from "@/lib/audit/mutations";
import type { Changes } from "@/lib/audit/schemas";
import type { WebhookEndpoint } from "@/lib/generated/prisma/client";
import type { CreateWebhookBody, UpdateWebhookBody } from "./schemas";

const webhookTarget = (endpoint: Pick<WebhookEndpoint, "uuid" | "url">) => ({
  type: "webhook" as const,
  uuid: endpoint.uuid,
  name: endpoint.url,
});

export function webhookCreated(endpoint: WebhookEndpoint, input: CreateWebhookBody): AuditEntry {
  return { action: "webhook.created", target: webhookTarget(endpoint), changes: changesBetween({}, input) };
}

export function webhookUpdated(endpoint: WebhookEndpoint, input: UpdateWebhookBody): AuditEntry {
  return {
    action: "webhook.updated",
    target: webhookTarget({ uuid: endpoint.uuid, url: input.url ?? endpoint.url }),
    changes: changesBetween(endpoint, input),
  };
}

/** An action on a webhook endpoint that changes no field of it (delete, test), or only its secret (rotate). */
export function webhookAction(
  action: "webhook.deleted" | "webhook.tested" | "webhook.secret_rotated",
  endpoint: WebhookEndpoint,
): AuditEntry {
  const changes: Changes = action === "webhook.secret_rotated" ? { secret: "changed" } : {};
  return { action, target: webhookTarget(endpoint), changes };
}

/** The delivery runner disabled an endpoint: its receiver answered 410 Gone (`gone`), or it failed for 5 days. */
export function webhookDisabled(endpoint: WebhookEndpoint, reason: "gone" | "failing"): AuditEntry {
  return {
    action: "webhook.disabled",
    target: webhookTarget(endpoint),
    changes: { enabled: [true, false], disabled_reason: [endpoint.disabledReason, reason] },
  };
}
