-- Each attempt of a webhook delivery (issue 28, item 20): the delivery row keeps only the last attempt.
-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "tenant_id" INTEGER NOT NULL,
    "id" SERIAL NOT NULL,
    "delivery_id" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "response_status" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE INDEX "webhook_delivery_attempts_tenant_id_delivery_id_attempted_a_idx" ON "webhook_delivery_attempts"("tenant_id", "delivery_id", "attempted_at");

-- AddForeignKey
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_tenant_id_delivery_id_fkey" FOREIGN KEY ("tenant_id", "delivery_id") REFERENCES "webhook_deliveries"("tenant_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

