-- An OAuth code's or token's hash is unique within its firm, as api_tokens' is, and found by an index of its own
-- before the firm is known: every unique key of a firm's table holds tenant_id (tests/db/sharding.test.ts), so that
-- the schema can still be distributed by tenant.
DROP INDEX "oauth_codes_code_hash_key";
CREATE UNIQUE INDEX "oauth_codes_tenant_id_code_hash_key" ON "oauth_codes"("tenant_id", "code_hash");
CREATE INDEX "oauth_codes_code_hash_idx" ON "oauth_codes"("code_hash");

DROP INDEX "oauth_access_tokens_token_hash_key";
CREATE UNIQUE INDEX "oauth_access_tokens_tenant_id_token_hash_key" ON "oauth_access_tokens"("tenant_id", "token_hash");
CREATE INDEX "oauth_access_tokens_token_hash_idx" ON "oauth_access_tokens"("token_hash");

DROP INDEX "oauth_refresh_tokens_token_hash_key";
CREATE UNIQUE INDEX "oauth_refresh_tokens_tenant_id_token_hash_key" ON "oauth_refresh_tokens"("tenant_id", "token_hash");
CREATE INDEX "oauth_refresh_tokens_token_hash_idx" ON "oauth_refresh_tokens"("token_hash");
