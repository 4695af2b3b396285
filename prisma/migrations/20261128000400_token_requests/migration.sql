-- Each token's recent requests (issue 40): written in batches off the request path (lib/request-log), kept 7 days.
-- Read newest first per token; pruned by age.
-- CreateTable
CREATE TABLE "token_requests" (
    "tenant_id" INTEGER NOT NULL,
    "id" BIGSERIAL NOT NULL,
    "token_id" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "request_id" VARCHAR(128) NOT NULL,
    "method" VARCHAR(16) NOT NULL,
    "path" TEXT NOT NULL,
    "status" SMALLINT NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "message" TEXT,
    "errors" JSONB,

    CONSTRAINT "token_requests_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "token_requests_tenant_id_token_id_created_at_id_idx" ON "token_requests"("tenant_id", "token_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "token_requests_created_at_idx" ON "token_requests"("created_at");

-- AddForeignKey
ALTER TABLE "token_requests" ADD CONSTRAINT "token_requests_tenant_id_token_id_fkey" FOREIGN KEY ("tenant_id", "token_id") REFERENCES "api_tokens"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

