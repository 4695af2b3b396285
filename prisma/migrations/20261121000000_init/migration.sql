-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "citext";

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "ClientStatus" AS ENUM ('prospect', 'active');

-- CreateEnum
CREATE TYPE "ClientAccess" AS ENUM ('all', 'client_groups', 'assigned_clients');

-- CreateEnum
CREATE TYPE "CustomFieldType" AS ENUM ('text', 'number', 'date', 'boolean', 'select');

-- CreateTable
CREATE TABLE "tenants" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "countries" (
    "id" INTEGER NOT NULL,
    "code" CHAR(2) NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "countries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "roles" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "permissions" TEXT[],

    CONSTRAINT "roles_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "users" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "firstname" TEXT NOT NULL,
    "lastname" TEXT NOT NULL,
    "email" CITEXT NOT NULL,
    "password_hash" TEXT,
    "role_id" INTEGER NOT NULL,
    "client_access" "ClientAccess" NOT NULL DEFAULT 'all',
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "is_owner" BOOLEAN NOT NULL DEFAULT false,
    "avatar_url" TEXT,
    "archived_date" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "last_four" VARCHAR(4) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "client_groups" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "client_groups_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "user_client_groups" (
    "tenant_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "group_id" INTEGER NOT NULL,

    CONSTRAINT "user_client_groups_pkey" PRIMARY KEY ("tenant_id","user_id","group_id")
);

-- CreateTable
CREATE TABLE "client_group_members" (
    "tenant_id" INTEGER NOT NULL,
    "client_id" INTEGER NOT NULL,
    "group_id" INTEGER NOT NULL,

    CONSTRAINT "client_group_members_pkey" PRIMARY KEY ("tenant_id","client_id","group_id")
);

-- CreateTable
CREATE TABLE "tags" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "custom_fields" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "type" "CustomFieldType" NOT NULL,
    "options" TEXT[],
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "custom_fields_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "custom_field_values" (
    "tenant_id" INTEGER NOT NULL,
    "client_id" INTEGER NOT NULL,
    "field_id" INTEGER NOT NULL,
    "value" JSONB NOT NULL,

    CONSTRAINT "custom_field_values_pkey" PRIMARY KEY ("tenant_id","client_id","field_id")
);

-- CreateTable
CREATE TABLE "clients" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" VARCHAR(100) NOT NULL,
    "client_ref" CITEXT,
    "reg_number" CITEXT,
    "website" TEXT,
    "country_id" INTEGER,
    "state" TEXT,
    "city" TEXT,
    "street_address" TEXT,
    "postal_code" TEXT,
    "year_end" CHAR(5) NOT NULL DEFAULT '12-31',
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "client_status" "ClientStatus" NOT NULL DEFAULT 'active',
    "account_manager_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "clients_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "client_tags" (
    "tenant_id" INTEGER NOT NULL,
    "client_id" INTEGER NOT NULL,
    "tag_id" INTEGER NOT NULL,

    CONSTRAINT "client_tags_pkey" PRIMARY KEY ("tenant_id","client_id","tag_id")
);

-- CreateTable
CREATE TABLE "contacts" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL DEFAULT gen_random_uuid(),
    "firstname" TEXT NOT NULL,
    "lastname" TEXT NOT NULL,
    "preferred_name" TEXT NOT NULL,
    "email" CITEXT NOT NULL,
    "phone_number" TEXT,
    "portal_enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contacts_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "client_contacts" (
    "tenant_id" INTEGER NOT NULL,
    "client_id" INTEGER NOT NULL,
    "contact_id" INTEGER NOT NULL,
    "title" TEXT,
    "include_for_client_requests" BOOLEAN NOT NULL DEFAULT false,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "client_contacts_pkey" PRIMARY KEY ("tenant_id","client_id","contact_id")
);

-- CreateTable
CREATE TABLE "job_statuses" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "is_completed" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "job_statuses_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" VARCHAR(150) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status_id" INTEGER,
    "client_id" INTEGER,
    "parent_id" INTEGER,
    "start_date" DATE,
    "due_date" DATE,
    "internal_due_date" DATE,
    "extended_due_date" DATE,
    "estimated_hours" DECIMAL(7,2),
    "is_completed" BOOLEAN NOT NULL DEFAULT false,
    "completed_date" DATE,
    "is_client_request" BOOLEAN NOT NULL DEFAULT false,
    "repeat_settings" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "job_assignees" (
    "tenant_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "job_assignees_pkey" PRIMARY KEY ("tenant_id","job_id","user_id")
);

-- CreateTable
CREATE TABLE "job_followers" (
    "tenant_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,

    CONSTRAINT "job_followers_pkey" PRIMARY KEY ("tenant_id","job_id","user_id")
);

-- CreateTable
CREATE TABLE "job_tags" (
    "tenant_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "tag_id" INTEGER NOT NULL,

    CONSTRAINT "job_tags_pkey" PRIMARY KEY ("tenant_id","job_id","tag_id")
);

-- CreateTable
CREATE TABLE "time_logs" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "uuid" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" INTEGER NOT NULL,
    "job_id" INTEGER,
    "client_id" INTEGER,
    "note" TEXT NOT NULL DEFAULT '',
    "minutes" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "time_logs_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "countries_code_key" ON "countries"("code");

-- CreateIndex
CREATE UNIQUE INDEX "roles_tenant_id_name_key" ON "roles"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "users_email_idx" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "users_tenant_id_email_key" ON "users"("tenant_id", "email");

-- CreateIndex
CREATE INDEX "api_tokens_token_hash_idx" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_tenant_id_user_id_idx" ON "api_tokens"("tenant_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_tenant_id_token_hash_key" ON "api_tokens"("tenant_id", "token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "client_groups_tenant_id_name_key" ON "client_groups"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "client_group_members_tenant_id_group_id_idx" ON "client_group_members"("tenant_id", "group_id");

-- CreateIndex
CREATE UNIQUE INDEX "tags_tenant_id_name_key" ON "tags"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "custom_fields_tenant_id_name_key" ON "custom_fields"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "clients_uuid_idx" ON "clients"("uuid");

-- CreateIndex
CREATE INDEX "clients_tenant_id_name_idx" ON "clients"("tenant_id", "name");

-- CreateIndex
CREATE INDEX "clients_tenant_id_created_at_idx" ON "clients"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "clients_tenant_id_country_id_idx" ON "clients"("tenant_id", "country_id");

-- CreateIndex
CREATE INDEX "clients_tenant_id_account_manager_id_idx" ON "clients"("tenant_id", "account_manager_id");

-- CreateIndex
CREATE UNIQUE INDEX "clients_tenant_id_uuid_key" ON "clients"("tenant_id", "uuid");

-- CreateIndex
CREATE UNIQUE INDEX "clients_tenant_id_client_ref_key" ON "clients"("tenant_id", "client_ref");

-- CreateIndex
CREATE UNIQUE INDEX "clients_tenant_id_reg_number_key" ON "clients"("tenant_id", "reg_number");

-- CreateIndex
CREATE INDEX "client_tags_tenant_id_tag_id_idx" ON "client_tags"("tenant_id", "tag_id");

-- CreateIndex
CREATE INDEX "contacts_uuid_idx" ON "contacts"("uuid");

-- CreateIndex
CREATE INDEX "contacts_tenant_id_lastname_firstname_idx" ON "contacts"("tenant_id", "lastname", "firstname");

-- CreateIndex
CREATE UNIQUE INDEX "contacts_tenant_id_uuid_key" ON "contacts"("tenant_id", "uuid");

-- CreateIndex
CREATE UNIQUE INDEX "contacts_tenant_id_email_key" ON "contacts"("tenant_id", "email");

-- CreateIndex
CREATE INDEX "client_contacts_tenant_id_contact_id_idx" ON "client_contacts"("tenant_id", "contact_id");

-- CreateIndex
CREATE UNIQUE INDEX "job_statuses_tenant_id_slug_key" ON "job_statuses"("tenant_id", "slug");

-- CreateIndex
CREATE INDEX "jobs_uuid_idx" ON "jobs"("uuid");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_due_date_idx" ON "jobs"("tenant_id", "due_date");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_start_date_idx" ON "jobs"("tenant_id", "start_date");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_created_at_idx" ON "jobs"("tenant_id", "created_at");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_client_id_idx" ON "jobs"("tenant_id", "client_id");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_status_id_idx" ON "jobs"("tenant_id", "status_id");

-- CreateIndex
CREATE INDEX "jobs_tenant_id_parent_id_idx" ON "jobs"("tenant_id", "parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "jobs_tenant_id_uuid_key" ON "jobs"("tenant_id", "uuid");

-- CreateIndex
CREATE INDEX "job_assignees_tenant_id_user_id_idx" ON "job_assignees"("tenant_id", "user_id");

-- CreateIndex
CREATE INDEX "job_followers_tenant_id_user_id_idx" ON "job_followers"("tenant_id", "user_id");

-- CreateIndex
CREATE INDEX "job_tags_tenant_id_tag_id_idx" ON "job_tags"("tenant_id", "tag_id");

-- CreateIndex
CREATE INDEX "time_logs_uuid_idx" ON "time_logs"("uuid");

-- CreateIndex
CREATE INDEX "time_logs_tenant_id_date_idx" ON "time_logs"("tenant_id", "date");

-- CreateIndex
CREATE INDEX "time_logs_tenant_id_user_id_date_idx" ON "time_logs"("tenant_id", "user_id", "date");

-- CreateIndex
CREATE INDEX "time_logs_tenant_id_job_id_idx" ON "time_logs"("tenant_id", "job_id");

-- CreateIndex
CREATE INDEX "time_logs_tenant_id_client_id_idx" ON "time_logs"("tenant_id", "client_id");

-- CreateIndex
CREATE UNIQUE INDEX "time_logs_tenant_id_uuid_key" ON "time_logs"("tenant_id", "uuid");

-- AddForeignKey
ALTER TABLE "roles" ADD CONSTRAINT "roles_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_role_id_fkey" FOREIGN KEY ("tenant_id", "role_id") REFERENCES "roles"("tenant_id", "id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_groups" ADD CONSTRAINT "client_groups_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_client_groups" ADD CONSTRAINT "user_client_groups_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_client_groups" ADD CONSTRAINT "user_client_groups_tenant_id_group_id_fkey" FOREIGN KEY ("tenant_id", "group_id") REFERENCES "client_groups"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_group_members" ADD CONSTRAINT "client_group_members_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "clients"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_group_members" ADD CONSTRAINT "client_group_members_tenant_id_group_id_fkey" FOREIGN KEY ("tenant_id", "group_id") REFERENCES "client_groups"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tags" ADD CONSTRAINT "tags_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field_values" ADD CONSTRAINT "custom_field_values_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "clients"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_field_values" ADD CONSTRAINT "custom_field_values_tenant_id_field_id_fkey" FOREIGN KEY ("tenant_id", "field_id") REFERENCES "custom_fields"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clients" ADD CONSTRAINT "clients_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clients" ADD CONSTRAINT "clients_country_id_fkey" FOREIGN KEY ("country_id") REFERENCES "countries"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clients" ADD CONSTRAINT "clients_tenant_id_account_manager_id_fkey" FOREIGN KEY ("tenant_id", "account_manager_id") REFERENCES "users"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_tags" ADD CONSTRAINT "client_tags_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "clients"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_tags" ADD CONSTRAINT "client_tags_tenant_id_tag_id_fkey" FOREIGN KEY ("tenant_id", "tag_id") REFERENCES "tags"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_contacts" ADD CONSTRAINT "client_contacts_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "clients"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_contacts" ADD CONSTRAINT "client_contacts_tenant_id_contact_id_fkey" FOREIGN KEY ("tenant_id", "contact_id") REFERENCES "contacts"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_statuses" ADD CONSTRAINT "job_statuses_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_tenant_id_status_id_fkey" FOREIGN KEY ("tenant_id", "status_id") REFERENCES "job_statuses"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "clients"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_tenant_id_parent_id_fkey" FOREIGN KEY ("tenant_id", "parent_id") REFERENCES "jobs"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_assignees" ADD CONSTRAINT "job_assignees_tenant_id_job_id_fkey" FOREIGN KEY ("tenant_id", "job_id") REFERENCES "jobs"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_assignees" ADD CONSTRAINT "job_assignees_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_followers" ADD CONSTRAINT "job_followers_tenant_id_job_id_fkey" FOREIGN KEY ("tenant_id", "job_id") REFERENCES "jobs"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_followers" ADD CONSTRAINT "job_followers_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_tags" ADD CONSTRAINT "job_tags_tenant_id_job_id_fkey" FOREIGN KEY ("tenant_id", "job_id") REFERENCES "jobs"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_tags" ADD CONSTRAINT "job_tags_tenant_id_tag_id_fkey" FOREIGN KEY ("tenant_id", "tag_id") REFERENCES "tags"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_tenant_id_job_id_fkey" FOREIGN KEY ("tenant_id", "job_id") REFERENCES "jobs"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "time_logs" ADD CONSTRAINT "time_logs_tenant_id_client_id_fkey" FOREIGN KEY ("tenant_id", "client_id") REFERENCES "clients"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE CASCADE;
