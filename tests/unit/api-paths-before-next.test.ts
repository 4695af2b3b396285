// `next start` answers a path with `//` or `\` by a text 308 before the proxy or any route runs; under /api/v1 the guard
// in front of the HTTP server answers a JSON 404 instead, and lets everything else through to Next.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installBeforeNext } from "@/lib/http/before-next";

let server: http.Server;
let base: string;

beforeAll(async () => {
  installBeforeNext((_request, _response, pass) => pass());
  // Stands in for Next: the redirect it sends for such paths, and a 200 for anything else.
  server = http.createServer((request, response) => {
    if (/\/\/|\\/.test(request.url!.split("?")[0])) {
      response.writeHead(308, { Location: request.url!.replace(/[\\/]+/g, "/") }).end("redirect");
    } else response.writeHead(200, { "Content-Type": "text/plain" }).end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A request with the path exactly as given (fetch would turn `\` into `/` first). */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const request = http.request(`${base}/`, { method, path, headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

describe("paths with // or \\ under /api/v1", () => {
  it.each([
    ["GET", "/api/v1//me"],
    ["POST", "/api/v1/webhooks//test"],
    ["GET", "/api/v1/clients//"],
    ["GET", "//api/v1/me"],
    ["GET", "/api/v1\\me"],
    ["GET", "/api/v1//clients?limit=1"],
  ])("%s %s is a JSON 404 with the API's headers, never a redirect", async (method, path) => {
    const headers = { Authorization: "Bearer cjt_not-a-token", "Content-Type": "application/json" };
    const res = await send(method, path, headers, method === "POST" ? "{}" : undefined);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(res.text).message).toMatch(/empty segments/);
  });

  it.each(["/api/v1/me", "/signin//x", "/api/v10//x", "/api/auth//session", "/api/v1/clients?q=a//b"])(
    "leaves %s to Next",
    async (path) => {
      expect([200, 308]).toContain((await send("GET", path)).status);
    },
  );
});
