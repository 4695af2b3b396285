// `npm run mcp:conformance`: the MCP conformance suite's server scenarios (@modelcontextprotocol/conformance, pinned)
// against a running server's /api/mcp. MCP_URL (default http://127.0.0.1:3000/api/mcp) and MCP_TOKEN (a personal
// token: `npm run token:create -- --email … --name conformance`) say where and as whom. The suite's client sends no
// credentials, so a proxy on a free local port adds the bearer to each request. Scenarios that cannot pass for a
// reason outside the product (they call the suite's own test tools and prompts, which a product does not have) are
// listed in scripts/mcp-conformance-baseline.yml and named in docs/mcp.md: the run fails on any other failure, and on
// a listed scenario that starts passing.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readCommandLine } from "./usage";

const { values } = readCommandLine(
  `Usage: npm run mcp:conformance [-- --scenario <name>]

Runs the MCP conformance suite's server scenarios against a running server's /api/mcp as a person: set MCP_TOKEN to
their personal token (npm run token:create) and MCP_URL to the endpoint (default http://127.0.0.1:3000/api/mcp; its
origin must be the server's APP_URL). --scenario runs one scenario. Fails on a failure not listed in
scripts/mcp-conformance-baseline.yml, and on a listed one that passes.`,
  { scenario: { type: "string" } },
);

const CONFORMANCE = "@modelcontextprotocol/conformance@0.1.16";
const target = new URL(process.env.MCP_URL ?? "http://127.0.0.1:3000/api/mcp");
const token = process.env.MCP_TOKEN;
if (!token) {
  console.error("Set MCP_TOKEN to a personal token of the server's database (npm run token:create).");
  process.exit(1);
}

let proxyOrigin = "";
const proxy = http.createServer((incoming, answer) => {
  const headers = { ...incoming.headers, host: target.host, authorization: `Bearer ${token}` };
  // The suite's "same origin" is the proxy's: passed on as the server's own (MCP_URL's origin must be its APP_URL).
  // Any other Origin goes through as sent, so the DNS rebinding scenario still sees foreign ones refused.
  if (headers.origin === proxyOrigin) headers.origin = target.origin;
  const outgoing = http.request(target, { method: incoming.method, headers }, (response) => {
    answer.writeHead(response.statusCode ?? 502, response.headers);
    response.pipe(answer);
  });
  outgoing.on("error", (error) => {
    answer.writeHead(502, { "Content-Type": "application/json" });
    answer.end(JSON.stringify({ message: `The server did not answer: ${error.message}` }));
  });
  incoming.pipe(outgoing);
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const { port } = proxy.address() as AddressInfo;
proxyOrigin = `http://127.0.0.1:${port}`;

const args = [
  "--yes",
  CONFORMANCE,
  "server",
  "--url",
  `http://127.0.0.1:${port}/mcp`,
  "--expected-failures",
  "scripts/mcp-conformance-baseline.yml",
  ...(values.scenario ? ["--scenario", values.scenario] : []),
];
const suite = spawn("npx", args, { stdio: "inherit" });
const code = await new Promise<number>((resolve) => suite.on("exit", (exitCode) => resolve(exitCode ?? 1)));
proxy.close();
process.exit(code);
