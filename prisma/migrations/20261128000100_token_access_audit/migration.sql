-- The `audit` token resource (none / read). Presets keep meaning what they meant: a token holding exactly Full access
-- or Read-only (as they were before this resource existed) gets `audit: read`, as the presets now include it; a custom
-- token gets `none`, since whoever chose its access never chose the audit log.
UPDATE "api_tokens" SET "access" = "access" || jsonb_build_object('audit', CASE
  WHEN "access" IN (
    '{"clients": "write", "contacts": "write", "jobs": "write", "users": "read", "time_logs": "read", "webhooks": "write"}'::jsonb,
    '{"clients": "read", "contacts": "read", "jobs": "read", "users": "read", "time_logs": "read", "webhooks": "read"}'::jsonb
  ) THEN 'read' ELSE 'none' END);

ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_access_check",
ADD CONSTRAINT "api_tokens_access_check" CHECK (
  jsonb_typeof("access") = 'object'
  -- Every resource present: a missing key would make its IN below NULL, which a CHECK lets through.
  AND "access" ?& ARRAY['clients', 'contacts', 'jobs', 'users', 'time_logs', 'webhooks', 'audit']
  AND "access" ->> 'clients' IN ('none', 'read', 'write')
  AND "access" ->> 'contacts' IN ('none', 'read', 'write')
  AND "access" ->> 'jobs' IN ('none', 'read', 'write')
  AND "access" ->> 'users' IN ('none', 'read')
  AND "access" ->> 'time_logs' IN ('none', 'read')
  AND "access" ->> 'webhooks' IN ('none', 'read', 'write')
  AND "access" ->> 'audit' IN ('none', 'read')
);
