-- Contact search (`GET /contacts?search=`) matches the first, last or preferred name; the preferred name had no
-- trigram index, so every search scanned all contacts of the tenant.

-- CreateIndex
CREATE INDEX "contacts_preferred_name_idx" ON "contacts" USING GIN ("preferred_name" gin_trgm_ops);

