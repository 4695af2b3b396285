-- Idempotency-Key (decisions.md, Integrations): the first answer to a key, per token, for 24 hours.

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "tenant_id" INTEGER NOT NULL,
    "token_id" INTEGER NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "status" INTEGER,
    "response_body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("tenant_id","token_id","key")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_tenant_id_expires_at_idx" ON "idempotency_keys"("tenant_id", "expires_at");

-- AddForeignKey
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_tenant_id_token_id_fkey" FOREIGN KEY ("tenant_id", "token_id") REFERENCES "api_tokens"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

