-- The token access a webhook endpoint was set up with (the token's that created or last changed it; the role's,
-- i.e. full, when done on the settings page): its payloads are the record as a GET with that access answers, nested
-- records of a resource it cannot read reduced to their identifier. Existing endpoints (and any made without a
-- token) keep the whole records they have been sent so far.
ALTER TABLE "webhook_endpoints" ADD COLUMN "access" JSONB NOT NULL
DEFAULT '{"jobs": "write", "audit": "read", "users": "read", "clients": "write", "contacts": "write", "webhooks": "write", "time_logs": "read"}'::jsonb;
