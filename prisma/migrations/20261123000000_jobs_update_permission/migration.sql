-- PUT /jobs/{uuid} needs the new permission `jobs.update`. Roles store permission names, so existing tenants' roles
-- would lack it: every role that may create jobs may now update them too (Owner, Admin and Standard; Viewer not).
UPDATE "roles"
SET "permissions" = array_append("permissions", 'jobs.update')
WHERE 'jobs.create' = ANY ("permissions") AND NOT ('jobs.update' = ANY ("permissions"));
