-- GET /contacts?limit=50: the first 50 contacts by name with the clients each is linked to, and the total.
SELECT n FROM row_counts WHERE tenant_id = :tenant AND table_name = 'contacts';
SELECT k.uuid, k.firstname, k.lastname, k.preferred_name, k.email, k.phone_number, k.portal_enabled, k.created_at, k.updated_at,
  (SELECT json_agg(json_build_object('uuid', c.uuid, 'name', c.name) ORDER BY c.name, c.uuid)
   FROM client_contacts cc JOIN clients c ON (c.tenant_id, c.id) = (cc.tenant_id, cc.client_id)
   WHERE cc.tenant_id = k.tenant_id AND cc.contact_id = k.id) AS clients
FROM contacts k
WHERE k.tenant_id = :tenant
ORDER BY k.lastname, k.firstname, k.uuid
LIMIT 50;
