-- CreateEnum
CREATE TYPE "TokenScope" AS ENUM ('read', 'read_write');

-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "scope" "TokenScope" NOT NULL DEFAULT 'read_write';

