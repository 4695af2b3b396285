-- GET /time-logs?per_page=1000&page=1000: time logs 999,001 to 1,000,000 with their client, job and user, and the total.
-- The last page: its ids come from an index-only scan walking the order backwards.
SELECT n FROM row_counts WHERE tenant_id = :tenant AND table_name = 'time_logs';
SELECT l.uuid, l.note, l.minutes, l.date, l.created_at, l.updated_at,
       c.uuid AS client_uuid, c.name AS client_name, j.uuid AS job_uuid, j.name AS job_name,
       u.id AS user_id, u.firstname, u.lastname
FROM (SELECT * FROM time_logs WHERE tenant_id = :tenant AND id IN (SELECT id FROM time_logs WHERE tenant_id = :tenant ORDER BY date, created_at, uuid DESC LIMIT 1000
  OFFSET (SELECT greatest(0, n - 1000000) FROM row_counts WHERE tenant_id = :tenant AND table_name = 'time_logs'))) l
LEFT JOIN clients c ON (c.tenant_id, c.id) = (l.tenant_id, l.client_id)
LEFT JOIN jobs j ON (j.tenant_id, j.id) = (l.tenant_id, l.job_id)
JOIN users u ON (u.tenant_id, u.id) = (l.tenant_id, l.user_id)
ORDER BY l.date DESC, l.created_at DESC, l.uuid;
