// The MCP endpoint for AI assistants (lib/mcp/http.ts, docs/mcp.md).
import { serveMcp } from "@/lib/mcp/http";

export const POST = serveMcp;
export const GET = serveMcp;
export const DELETE = serveMcp;

export const dynamic = "force-dynamic";
