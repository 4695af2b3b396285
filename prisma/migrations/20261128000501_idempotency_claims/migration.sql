-- Idempotency-Key claims a retry can take over from a dead holder, fenced by the write's transaction
-- (lib/db/idempotency.ts).

-- AlterTable
ALTER TABLE "idempotency_keys" ADD COLUMN     "claim" UUID NOT NULL DEFAULT gen_random_uuid(),
ADD COLUMN     "lease_until" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "written" BOOLEAN NOT NULL DEFAULT false;

