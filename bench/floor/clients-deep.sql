-- GET /clients?limit=50&page=1000: clients 49,951 to 50,000 by name, with everything a client shows, and the total.
-- The page lies in the second half of the list: its ids come from an index-only scan walking the order backwards
-- (on a smaller tenant, such as the smoke run's, the offset stops at 0).
SELECT n FROM row_counts WHERE tenant_id = :tenant AND table_name = 'clients' AND NOT flag;
SELECT c.id, c.uuid, c.name, c.client_ref, c.reg_number, c.website, c.state, c.city, c.street_address,
  c.postal_code, c.year_end, c.is_archived, c.client_status, c.created_at, c.updated_at,
  (SELECT name FROM countries WHERE id = c.country_id) AS country,
  (SELECT json_agg(json_build_object('fieldId', v.field_id, 'value', v.value))
   FROM custom_field_values v WHERE v.tenant_id = c.tenant_id AND v.client_id = c.id) AS custom_values,
  (SELECT json_agg(json_build_object('uuid', k.uuid, 'firstname', k.firstname, 'lastname', k.lastname,
     'preferredName', k.preferred_name, 'email', k.email, 'phoneNumber', k.phone_number,
     'portalEnabled', k.portal_enabled, 'updatedAt', k.updated_at,
     'clients', (SELECT json_agg(json_build_object('uuid', linked.uuid, 'name', linked.name) ORDER BY linked.name, linked.uuid)
                 FROM client_contacts link JOIN clients linked ON (linked.tenant_id, linked.id) = (link.tenant_id, link.client_id)
                 WHERE link.tenant_id = k.tenant_id AND link.contact_id = k.id))
     ORDER BY cc.is_primary DESC, k.lastname, k.firstname, k.uuid)
   FROM client_contacts cc JOIN contacts k ON (k.tenant_id, k.id) = (cc.tenant_id, cc.contact_id)
   WHERE cc.tenant_id = c.tenant_id AND cc.client_id = c.id) AS contacts
FROM clients c
WHERE c.tenant_id = :tenant AND c.id IN (SELECT id FROM clients WHERE tenant_id = :tenant AND NOT is_archived ORDER BY name DESC, uuid DESC LIMIT 50
  OFFSET (SELECT greatest(0, n - 50000) FROM row_counts WHERE tenant_id = :tenant AND table_name = 'clients' AND NOT flag))
ORDER BY c.name, c.uuid
;
