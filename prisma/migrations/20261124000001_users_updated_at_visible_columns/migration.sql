-- A user's updated_at moves only when something GET /users shows changes: signing out or changing the password
-- (session_version, password_hash) is no change an integration syncing users needs to see. The email is compared
-- as text, since citext would take a change of case for no change.
DROP TRIGGER users_updated_at ON "users";
CREATE TRIGGER users_updated_at BEFORE UPDATE ON "users" FOR EACH ROW
WHEN (
  (OLD.firstname, OLD.lastname, OLD.email::text, OLD.role_id, OLD.client_access, OLD.timezone, OLD.is_owner,
   OLD.avatar_url, OLD.archived_date)
  IS DISTINCT FROM
  (NEW.firstname, NEW.lastname, NEW.email::text, NEW.role_id, NEW.client_access, NEW.timezone, NEW.is_owner,
   NEW.avatar_url, NEW.archived_date)
)
EXECUTE FUNCTION set_updated_at();
