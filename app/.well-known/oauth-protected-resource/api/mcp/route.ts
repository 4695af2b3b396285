// RFC 9728 protected resource metadata of /api/mcp, where its 401 challenge points (lib/mcp/http.ts).
export { metadataEndpoint as GET } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";
