// RFC 8414 authorization server metadata (lib/oauth/http.ts).
export { metadataEndpoint as GET } from "@/lib/oauth/http";

// The issuer comes from configuration, so the document is the same for every request; it is still built per request
// so that a deployment's settings apply without a rebuild.
export const dynamic = "force-dynamic";
