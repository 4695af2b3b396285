-- GET /jobs?limit=50: the first 50 open jobs by due date (nulls last), with status, client, assignees, followers and
-- tags, and the total.
SELECT n FROM row_counts WHERE tenant_id = :tenant AND table_name = 'jobs' AND NOT flag;
SELECT j.uuid, j.name, j.description, j.start_date, j.due_date, j.internal_due_date, j.extended_due_date,
  j.estimated_hours, j.is_completed, j.completed_date, j.is_client_request, j.repeat_settings, j.created_at, j.updated_at,
  s.name AS status, c.uuid AS client_uuid, c.name AS client_name, p.uuid AS parent_uuid,
  (SELECT json_agg(a.user_id) FROM job_assignees a WHERE a.tenant_id = j.tenant_id AND a.job_id = j.id) AS assignees,
  (SELECT json_agg(f.user_id) FROM job_followers f WHERE f.tenant_id = j.tenant_id AND f.job_id = j.id) AS followers,
  (SELECT json_agg(t.tag_id) FROM job_tags t WHERE t.tenant_id = j.tenant_id AND t.job_id = j.id) AS tags
FROM (SELECT * FROM jobs WHERE tenant_id = :tenant AND NOT is_completed ORDER BY due_date NULLS LAST, uuid LIMIT 50) j
LEFT JOIN job_statuses s ON (s.tenant_id, s.id) = (j.tenant_id, j.status_id)
LEFT JOIN clients c ON (c.tenant_id, c.id) = (j.tenant_id, j.client_id)
LEFT JOIN jobs p ON (p.tenant_id, p.id) = (j.tenant_id, j.parent_id)
ORDER BY j.due_date NULLS LAST, j.uuid;
