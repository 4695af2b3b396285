-- Client search (`GET /clients?search=`) matches the name, reference, registration number or city, or a linked
-- contact's first name, last name or email. As one filter over those columns and the contacts it had to scan every
-- client of the tenant (bench/RESULTS.md), so each client now carries the text it is searched by, one line per
-- field, kept current by the triggers below, and one trigram index answers a search of any breadth. A search term
-- is a single line, so it can never match across two fields.

-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "search_text" TEXT NOT NULL DEFAULT '';

-- The searchable text of a client, from its own fields and its contacts as they are now.
CREATE FUNCTION client_search_text(p_tenant_id INTEGER, p_client_id INTEGER, p_fields TEXT[]) RETURNS TEXT
LANGUAGE sql AS $$
  SELECT array_to_string(p_fields || ARRAY(
    SELECT field
    FROM client_contacts link
    JOIN contacts k ON (k.tenant_id, k.id) = (link.tenant_id, link.contact_id)
    CROSS JOIN LATERAL unnest(ARRAY[k.firstname, k.lastname, k.email::text]) AS field
    WHERE link.tenant_id = p_tenant_id AND link.client_id = p_client_id
  ), E'\n')
$$;

-- Every insert or update of a client recomputes its text; the triggers below reset it to have it recomputed.
CREATE FUNCTION clients_set_search_text() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := client_search_text(NEW.tenant_id, NEW.id, ARRAY[NEW.name, NEW.client_ref::text, NEW.reg_number::text, NEW.city]);
  RETURN NEW;
END $$;

CREATE TRIGGER clients_search_text BEFORE INSERT OR UPDATE ON "clients"
FOR EACH ROW EXECUTE FUNCTION clients_set_search_text();

-- A contact linked or unlinked: its client's text changes.
CREATE FUNCTION client_contacts_refresh_search_text() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    UPDATE clients SET search_text = DEFAULT WHERE tenant_id = NEW.tenant_id AND id = NEW.client_id;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE clients SET search_text = DEFAULT WHERE tenant_id = OLD.tenant_id AND id = OLD.client_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER client_contacts_search_text AFTER INSERT OR UPDATE OR DELETE ON "client_contacts"
FOR EACH ROW EXECUTE FUNCTION client_contacts_refresh_search_text();

-- A contact renamed or given another email: the texts of all its clients change.
CREATE FUNCTION contacts_refresh_search_text() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  UPDATE clients SET search_text = DEFAULT
  WHERE tenant_id = NEW.tenant_id
    AND id IN (SELECT client_id FROM client_contacts WHERE tenant_id = NEW.tenant_id AND contact_id = NEW.id);
  RETURN NULL;
END $$;

CREATE TRIGGER contacts_search_text AFTER UPDATE OF firstname, lastname, email ON "contacts"
FOR EACH ROW EXECUTE FUNCTION contacts_refresh_search_text();

-- The clients that exist already.
UPDATE "clients" SET search_text = DEFAULT;

-- CreateIndex
CREATE INDEX "clients_search_text_idx" ON "clients" USING GIN ("search_text" gin_trgm_ops);

-- The separate trigram indexes this replaces (the name's stays, for the quick search by name).
-- DropIndex
DROP INDEX "clients_city_idx";

-- DropIndex
DROP INDEX "clients_client_ref_idx";

-- DropIndex
DROP INDEX "clients_reg_number_idx";

-- DropIndex
DROP INDEX "contacts_email_idx";
