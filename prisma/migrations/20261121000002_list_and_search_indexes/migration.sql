-- CreateIndex
CREATE INDEX "client_contacts_client_id_idx" ON "client_contacts"("client_id");

-- CreateIndex
CREATE INDEX "client_contacts_contact_id_idx" ON "client_contacts"("contact_id");

-- CreateIndex
CREATE INDEX "clients_tenant_id_is_archived_idx" ON "clients"("tenant_id", "is_archived");

-- CreateIndex
CREATE INDEX "clients_id_idx" ON "clients"("id");

-- CreateIndex
CREATE INDEX "clients_name_idx" ON "clients" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "clients_client_ref_idx" ON "clients" USING GIN ("client_ref" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "clients_reg_number_idx" ON "clients" USING GIN ("reg_number" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "clients_city_idx" ON "clients" USING GIN ("city" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "contacts_id_idx" ON "contacts"("id");

-- CreateIndex
CREATE INDEX "contacts_firstname_idx" ON "contacts" USING GIN ("firstname" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "contacts_lastname_idx" ON "contacts" USING GIN ("lastname" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "contacts_email_idx" ON "contacts" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "custom_field_values_client_id_idx" ON "custom_field_values"("client_id");

-- CreateIndex
CREATE INDEX "jobs_id_idx" ON "jobs"("id");


-- CreateIndex
CREATE INDEX "job_assignees_user_id_idx" ON "job_assignees"("user_id");

-- CreateIndex
CREATE INDEX "job_followers_user_id_idx" ON "job_followers"("user_id");
