-- CreateTable
CREATE TABLE "user_invites" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "user_invites_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "user_invites_token_hash_idx" ON "user_invites"("token_hash");

-- CreateIndex
CREATE INDEX "user_invites_tenant_id_user_id_idx" ON "user_invites"("tenant_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "user_invites_tenant_id_token_hash_key" ON "user_invites"("tenant_id", "token_hash");

-- AddForeignKey
ALTER TABLE "user_invites" ADD CONSTRAINT "user_invites_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_invites" ADD CONSTRAINT "user_invites_tenant_id_user_id_fkey" FOREIGN KEY ("tenant_id", "user_id") REFERENCES "users"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Owners and Admins of existing tenants may manage the firm's people (lib/auth/permissions.ts BUILT_IN_ROLES); new
-- tenants get the permission at creation.
UPDATE "roles"
SET "permissions" = "permissions" || ARRAY['users.manage']
WHERE "name" IN ('Owner', 'Admin') AND NOT ('users.manage' = ANY ("permissions"));
