-- Searches served by index, broad terms included (issue 29, bench/search-plans.md).
--
-- A search term's matches are counted exactly (meta.total), so every match is read and checked, however broad the
-- term: what a match costs decides. ILIKE lowers both sides of every candidate row in turn (a third of a count's
-- time on the bench data); the texts below are kept in lower case instead, so that a search lowers its term once and
-- compares bytes with LIKE, which gives the same matches (PostgreSQL's ILIKE is lower(text) LIKE lower(pattern)).

-- Client search: the same lines as before (name, reference, registration number, city, linked contacts' names and
-- emails), now in lower case.
CREATE OR REPLACE FUNCTION clients_set_search_text() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(client_search_text(NEW.tenant_id, NEW.id, ARRAY[NEW.name, NEW.client_ref::text, NEW.reg_number::text, NEW.city]));
  RETURN NEW;
END $$;

-- Contact search: every word must match the first, last or preferred name. Those three were one trigram index each,
-- ORed for every candidate; the lower-case key holds them one a line, and a word (never a line break) matches the
-- key where it matches one of the names.
-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "search_key" TEXT NOT NULL DEFAULT '';

CREATE FUNCTION contacts_set_search_key() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_key := lower(NEW.firstname || E'\n' || NEW.lastname || E'\n' || NEW.preferred_name);
  RETURN NEW;
END $$;

CREATE TRIGGER contacts_search_key BEFORE INSERT OR UPDATE ON "contacts"
FOR EACH ROW EXECUTE FUNCTION contacts_set_search_key();

-- The rows that exist already, without moving their updated_at (nothing a reader sees changes).
ALTER TABLE "clients" DISABLE TRIGGER clients_updated_at;
UPDATE "clients" SET search_text = lower(search_text);
ALTER TABLE "clients" ENABLE TRIGGER clients_updated_at;
ALTER TABLE "contacts" DISABLE TRIGGER contacts_updated_at;
UPDATE "contacts" SET search_key = DEFAULT;
ALTER TABLE "contacts" ENABLE TRIGGER contacts_updated_at;

-- DropIndex
DROP INDEX "contacts_firstname_idx";

-- DropIndex
DROP INDEX "contacts_lastname_idx";

-- DropIndex
DROP INDEX "contacts_preferred_name_idx";

-- CreateIndex
CREATE INDEX "contacts_search_key_idx" ON "contacts" USING GIN ("search_key" gin_trgm_ops);

-- The quick search (`/clients/search?q=`) takes the first ten names (in lower case) that begin with q. With the
-- lower-case name in byte order (the C collation), a btree holds exactly that order, and a prefix is one range of it:
-- the ten are read from the index, where the trigram index found every name with the prefix (5,555 for "har") for
-- a sort to keep ten. Lower-case names compare the same in C as in the C.UTF-8 collation of our databases.
ALTER TABLE "clients" ALTER COLUMN "name_key" SET DATA TYPE TEXT COLLATE "C";

-- CreateIndex
CREATE INDEX "clients_tenant_id_name_key_uuid_idx" ON "clients"("tenant_id", "name_key", "uuid");
