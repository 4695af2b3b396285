-- OAuth 2.1 for third-party apps (issue 52, docs/oauth.md): apps (clients), a person's grants, codes, access and
-- refresh tokens, the apps a firm listed with their caps, and the firm's app policy. A grant owns an api_tokens row
-- (kind 'app') that carries its access, expiry, last use, request log and rate limit, as a personal token's does.
-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'personal';

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "only_listed_apps" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "personal_tokens_at_mcp" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "oauth_clients" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "tenant_id" INTEGER,
    "name" TEXT NOT NULL,
    "redirect_uris" TEXT[],
    "secret_hash" CHAR(64),
    "created_by_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stale_at" TIMESTAMPTZ(3),
    "unused_expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_grants" (
    "tenant_id" INTEGER NOT NULL,
    "token_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "client_id" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "offline" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_grants_pkey" PRIMARY KEY ("tenant_id","token_id")
);

-- CreateTable
CREATE TABLE "oauth_codes" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "grant_id" INTEGER NOT NULL,
    "code_hash" CHAR(64) NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_codes_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "oauth_access_tokens" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "grant_id" INTEGER NOT NULL,
    "code_id" INTEGER NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_access_tokens_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "oauth_refresh_tokens" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "grant_id" INTEGER NOT NULL,
    "code_id" INTEGER NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "successor" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_refresh_tokens_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "oauth_firm_apps" (
    "tenant_id" INTEGER NOT NULL,
    "client_id" TEXT NOT NULL,
    "access_cap" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_firm_apps_pkey" PRIMARY KEY ("tenant_id","client_id")
);

-- CreateIndex
CREATE INDEX "oauth_clients_tenant_id_idx" ON "oauth_clients"("tenant_id");

-- CreateIndex
CREATE INDEX "oauth_clients_unused_expires_at_idx" ON "oauth_clients"("unused_expires_at");

-- CreateIndex
CREATE INDEX "oauth_grants_client_id_idx" ON "oauth_grants"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_grants_tenant_id_user_id_client_id_audience_key" ON "oauth_grants"("tenant_id", "user_id", "client_id", "audience");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_codes_code_hash_key" ON "oauth_codes"("code_hash");

-- CreateIndex
CREATE INDEX "oauth_codes_expires_at_idx" ON "oauth_codes"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_access_tokens_token_hash_key" ON "oauth_access_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "oauth_access_tokens_tenant_id_code_id_idx" ON "oauth_access_tokens"("tenant_id", "code_id");

-- CreateIndex
CREATE INDEX "oauth_access_tokens_expires_at_idx" ON "oauth_access_tokens"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_refresh_tokens_token_hash_key" ON "oauth_refresh_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "oauth_refresh_tokens_tenant_id_code_id_idx" ON "oauth_refresh_tokens"("tenant_id", "code_id");

-- CreateIndex
CREATE INDEX "oauth_refresh_tokens_expires_at_idx" ON "oauth_refresh_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "oauth_firm_apps_client_id_idx" ON "oauth_firm_apps"("client_id");

-- AddForeignKey
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_tenant_id_token_id_fkey" FOREIGN KEY ("tenant_id", "token_id") REFERENCES "api_tokens"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_tenant_id_grant_id_fkey" FOREIGN KEY ("tenant_id", "grant_id") REFERENCES "oauth_grants"("tenant_id", "token_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_access_tokens" ADD CONSTRAINT "oauth_access_tokens_tenant_id_grant_id_fkey" FOREIGN KEY ("tenant_id", "grant_id") REFERENCES "oauth_grants"("tenant_id", "token_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_refresh_tokens" ADD CONSTRAINT "oauth_refresh_tokens_tenant_id_grant_id_fkey" FOREIGN KEY ("tenant_id", "grant_id") REFERENCES "oauth_grants"("tenant_id", "token_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_firm_apps" ADD CONSTRAINT "oauth_firm_apps_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_firm_apps" ADD CONSTRAINT "oauth_firm_apps_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;


ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_kind_check" CHECK ("kind" IN ('personal', 'app'));
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_kind_check" CHECK (
  "kind" IN ('firm', 'metadata', 'dynamic') AND ("kind" = 'firm') = ("tenant_id" IS NOT NULL)
);
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_audience_check" CHECK ("audience" IN ('api', 'mcp'));

-- A grant gone (revoked, or its app deleted: the cascade from oauth_clients) takes its api_tokens row with it, whose
-- own trigger then tells every instance's authentication cache.
CREATE FUNCTION delete_grant_token() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "api_tokens" WHERE "tenant_id" = OLD."tenant_id" AND "id" = OLD."token_id";
  RETURN NULL;
END $$;
CREATE TRIGGER oauth_grants_delete_token AFTER DELETE ON "oauth_grants"
FOR EACH ROW EXECUTE FUNCTION delete_grant_token();

-- A grant ends when its person is archived or changes password (decisions.md, "Apps and assistants"): in the
-- database, so that no path that does either (the team page, the profile, a reset link, the CLI) can forget it.
CREATE FUNCTION end_grants_of_user() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "api_tokens" WHERE "tenant_id" = NEW."tenant_id" AND "user_id" = NEW."id" AND "kind" = 'app';
  RETURN NULL;
END $$;
CREATE TRIGGER users_end_grants AFTER UPDATE OF "archived_date", "password_hash" ON "users"
FOR EACH ROW WHEN (
  (NEW."archived_date" IS NOT NULL AND OLD."archived_date" IS NULL)
  OR NEW."password_hash" IS DISTINCT FROM OLD."password_hash"
) EXECUTE FUNCTION end_grants_of_user();

-- What can end or narrow an app token's use, told to the authentication caches (20261128000500_auth_change_notify):
-- an access token revoked, a firm's listing or cap of an app. (The grant's own row is api_tokens; the policy is on
-- tenants: both already notify.)
CREATE TRIGGER oauth_access_tokens_auth_change AFTER UPDATE OR DELETE ON "oauth_access_tokens"
FOR EACH ROW EXECUTE FUNCTION notify_auth_change('tenant_id');
CREATE TRIGGER oauth_firm_apps_auth_change AFTER INSERT OR UPDATE OR DELETE ON "oauth_firm_apps"
FOR EACH ROW EXECUTE FUNCTION notify_auth_change('tenant_id');
