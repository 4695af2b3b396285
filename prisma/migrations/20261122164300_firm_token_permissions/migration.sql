-- Owners and Admins of existing tenants gain the new permissions (lib/auth/permissions.ts BUILT_IN_ROLES); new
-- tenants get them at creation.
UPDATE "roles"
SET "permissions" = "permissions" || ARRAY['tokens.manage_all', 'webhooks.manage']
WHERE "name" IN ('Owner', 'Admin') AND NOT ('tokens.manage_all' = ANY ("permissions"));
