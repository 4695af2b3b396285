// One MCP server per request (stateless: no session, nothing kept between requests), for an authenticated caller:
// its tools and resources are what the caller's token may use.
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server } from "@modelcontextprotocol/server";
import type { Caller } from "@/lib/auth/caller";
import { readResource, resourceList } from "./resources";
import { callTool, findTool, toolDefinition, toolsFor } from "./tools";

/** The revisions this endpoint answers (the 2026 one through the SDK's modern path, the 2025 ones by `initialize`). */
export const PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18"];

const INSTRUCTIONS =
  "Clients, contacts, jobs, people and time of one accounting firm, with the access of the token you connected with. " +
  "Read the custom fields and job statuses resources before writing clients or jobs. A refused call is a tool error " +
  "with the API's message and, for invalid input, its field errors.";

/** A server for one request: `envelope` is the HTTP request, whose token each tool call presents again. */
export function mcpServer(caller: Caller, envelope: Request): Server {
  const server = new Server(
    { name: "cjt", title: "Clients, jobs and time", version: "1.0.0" },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: INSTRUCTIONS,
      supportedProtocolVersions: PROTOCOL_VERSIONS,
    },
  );
  server.setRequestHandler("tools/list", async () => ({
    tools: toolsFor(caller).map(toolDefinition),
  }));
  server.setRequestHandler("tools/call", async (request) => {
    const tool = findTool(request.params.name);
    // The spec's answer to a tool that does not exist; one the caller may not use is the endpoint's own refusal.
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, envelope);
  });
  server.setRequestHandler("resources/list", async () => ({ resources: resourceList(caller.tokenAccess) }));
  server.setRequestHandler("resources/read", async (request) => {
    const contents = await readResource(request.params.uri, caller);
    if (!contents) throw new ResourceNotFoundError(request.params.uri);
    return contents;
  });
  return server;
}
