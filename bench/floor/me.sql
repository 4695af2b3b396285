-- GET /me: the token's owner, role and firm, found by the token's hash (the owner's newest bench token).
SELECT t.id, t.tenant_id, t.name, t.expires_at, t.access, u.id, u.firstname, u.lastname, u.email, u.timezone, u.client_access,
       u.is_owner, u.archived_date, r.name, r.permissions, tn.name, tn.timezone
FROM api_tokens t
JOIN users u ON (u.tenant_id, u.id) = (t.tenant_id, t.user_id)
JOIN roles r ON (r.tenant_id, r.id) = (u.tenant_id, u.role_id)
JOIN tenants tn ON tn.id = t.tenant_id
WHERE t.token_hash = (SELECT token_hash FROM api_tokens WHERE tenant_id = :tenant AND user_id = :owner ORDER BY id DESC LIMIT 1);
