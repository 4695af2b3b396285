// The event types an endpoint can subscribe to, and the test event any endpoint can be sent.
export const EVENT_TYPES = [
  "client.created",
  "client.updated",
  "contact.created",
  "contact.updated",
  "job.created",
  "job.updated",
  "job.completed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Sent by "send a test" whatever the endpoint subscribes to. */
export const TEST_EVENT = "webhook.test";

/** Attempts after the first, in seconds after the failure before (decisions.md): 8 attempts in all. */
export const RETRY_DELAYS_S = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
/** An endpoint that has failed for this long without a success in between is disabled. */
export const FAILING_DISABLES_AFTER_MS = 5 * 24 * 3600 * 1000;
/** A 2xx within this time is a success. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How much of a receiver's answer is kept. */
export const RESPONSE_BODY_LIMIT = 1024;
/** Deliveries and events older than this are pruned. */
export const RETENTION_MS = 30 * 24 * 3600 * 1000;
/** At most this many endpoints per firm. */
export const MAX_ENDPOINTS = 20;
