// RFC 9728 protected resource metadata at the root, for clients that look there first (lib/mcp/http.ts).
export { metadataEndpoint as GET } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";
