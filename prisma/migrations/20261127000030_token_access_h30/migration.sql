-- Per-resource token access replaces the scope: `read_write` tokens get Full access (write where the API writes,
-- read elsewhere) and `read` tokens Read-only, exactly what each could do before. Plus the token's last address and
-- user agent.
ALTER TABLE "api_tokens" ADD COLUMN "access" JSONB,
ADD COLUMN "last_used_address" TEXT,
ADD COLUMN "last_used_user_agent" TEXT;

UPDATE "api_tokens" SET "access" = CASE "scope"
  WHEN 'read' THEN '{"clients": "read", "contacts": "read", "jobs": "read", "users": "read", "time_logs": "read", "webhooks": "read"}'::jsonb
  ELSE '{"clients": "write", "contacts": "write", "jobs": "write", "users": "read", "time_logs": "read", "webhooks": "write"}'::jsonb
END;

ALTER TABLE "api_tokens" ALTER COLUMN "access" SET NOT NULL,
ADD CONSTRAINT "api_tokens_access_check" CHECK (
  jsonb_typeof("access") = 'object'
  AND "access" ->> 'clients' IN ('none', 'read', 'write')
  AND "access" ->> 'contacts' IN ('none', 'read', 'write')
  AND "access" ->> 'jobs' IN ('none', 'read', 'write')
  AND "access" ->> 'users' IN ('none', 'read')
  AND "access" ->> 'time_logs' IN ('none', 'read')
  AND "access" ->> 'webhooks' IN ('none', 'read', 'write')
);

ALTER TABLE "api_tokens" DROP COLUMN "scope";
DROP TYPE "TokenScope";
