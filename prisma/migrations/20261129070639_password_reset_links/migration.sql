-- One-time links to set a password serve two purposes: an invite (the first password) and a reset link (a new one for
-- an active person: issue 56). Existing links are invites.

-- CreateEnum
CREATE TYPE "LinkPurpose" AS ENUM ('invite', 'password_reset');

-- AlterTable
ALTER TABLE "user_invites" ADD COLUMN     "purpose" "LinkPurpose" NOT NULL DEFAULT 'invite';

