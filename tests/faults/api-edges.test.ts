// The edges of the contract at the HTTP front door of the built server (decisions.md, Wire format), sent as raw bytes
// since no HTTP client sends them: every answer under /api/v1 is JSON, never text, empty or a redirect.
// - a method the path lacks (TRACE, PROPFIND, QUERY, PURGE, M-SEARCH) is a 405 with Allow, judged before the token;
//   so is a non-GET on /openapi.json;
// - `RSC: 1` and Next-Router-* headers, and an absolute-form request target, never turn an answer into a redirect;
// - a client's X-Forwarded-Proto does not change the scheme of links without a trusted proxy;
// - a request Node's parser refuses (a NUL in the request line, `Content-Length: abc`, a lowercase method) is a JSON 400;
// - the sweep at the end: every answer under /api/ to an edge of the door is JSON with a request id, and no stack
//   trace reaches the server's log (issue 55).
// Needs `npm run build` first.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuiltServerDatabase, built, freePort, kill, startServer } from "../support/built-server";

const PORT = await freePort();
let database: BuiltServerDatabase;
let stop = () => {};
let serverOutput = () => "";

beforeAll(async () => {
  if (!built || process.env.DATABASE_URL) return;
  database = await BuiltServerDatabase.create();
  const { server, output } = await startServer(PORT, database);
  stop = () => kill(server, "SIGTERM");
  serverOutput = output;
}, 120_000);
afterAll(async () => {
  stop();
  await database?.remove();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are on a new connection and reads the answer until the server closes it. */
function raw(head: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    // A server that answers before it has read everything sent (431) closes with bytes unread, which the kernel may
    // turn into a reset: what was answered before it is the answer.
    socket.on("error", (error) => {
      if (!chunks.length) reject(error);
    });
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [top, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...lines] = top.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.end(head);
  });
}

const request = (line: string, headers: Record<string, string> = {}) =>
  raw(
    `${line}\r\n${Object.entries({ Host: `127.0.0.1:${PORT}`, Connection: "close", ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")}\r\n`,
  );

/** The JSON body of a chunked or plain answer. */
function json(answer: RawAnswer) {
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  const body =
    answer.headers["transfer-encoding"] === "chunked"
      ? answer.body
          .split("\r\n")
          .filter((_, i) => i % 2 === 1)
          .join("")
      : answer.body;
  return JSON.parse(body);
}

const auth = () => ({ Authorization: `Bearer ${database.token}` });

describe.skipIf(!built || process.env.DATABASE_URL)("the API's front door on the built server", () => {
  it.each([
    ["TRACE", "/api/v1/clients", "GET, POST, OPTIONS"],
    ["TRACE", "/api/v1/me", "GET, OPTIONS"],
    ["PROPFIND", "/api/v1/clients/search", "GET, OPTIONS"],
    ["QUERY", "/api/v1/jobs/0b7d6f8e-8f8a-4a51-9a0e-3f0f0f0f0f0f", "GET, PUT, OPTIONS"],
    ["PURGE", "/api/v1/webhooks", "GET, POST, OPTIONS"],
    ["M-SEARCH", "/api/v1/webhooks/0b7d6f8e-8f8a-4a51-9a0e-3f0f0f0f0f0f/test", "POST, OPTIONS"],
  ])("answers %s %s with a JSON 405 and Allow, before the token", async (method, path, allow) => {
    const answer = await request(`${method} ${path} HTTP/1.1`);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    expect(json(answer).message).toMatch(/not allowed/);
  });

  it("answers TRACE on a path that is no endpoint's with a JSON 404", async () => {
    const answer = await request("TRACE /api/v1/nothing-here HTTP/1.1", auth());
    expect(answer.status).toBe(404);
    expect(json(answer).message).toMatch(/not found/i);
  });

  it.each(["POST", "PUT", "DELETE", "PATCH", "TRACE"])("answers %s /api/v1/openapi.json with a JSON 405", async (m) => {
    const answer = await request(`${m} /api/v1/openapi.json HTTP/1.1`, { "Content-Length": "0" });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD");
    expect(json(answer).message).toMatch(/not allowed/);
  });

  it.each<Record<string, string>>([
    { RSC: "1" },
    { RSC: "1", "Next-Router-State-Tree": "%5B%22%22%5D", "Next-Router-Prefetch": "1" },
    { "Next-Router-Segment-Prefetch": "/_tree" },
  ])("answers an API request with framework headers %o as any other, not with a redirect", async (headers) => {
    const answer = await request("GET /api/v1/me HTTP/1.1", { ...auth(), ...headers });
    expect(answer.status).toBe(200);
    expect(json(answer).email).toBe("owner@acme.test");
    const unauthenticated = await request("GET /api/v1/clients HTTP/1.1", headers);
    expect(unauthenticated.status).toBe(401);
    expect(json(unauthenticated).message).toBeTruthy();
  });

  it("answers a query value that is not UTF-8 once decoded with a 422 naming it, though Next re-encodes the query", async () => {
    const answer = await request("GET /api/v1/jobs?search=%ff&limit=1 HTTP/1.1", auth());
    expect(answer.status).toBe(422);
    expect(json(answer).errors).toEqual({ search: ["Must be valid UTF-8 text once its %-escapes are decoded."] });
    // A client's own header naming a query is not taken for the one it sent.
    const forged = await request("GET /api/v1/jobs?limit=1 HTTP/1.1", { ...auth(), "X-Cjt-Raw-Query": "?search=%ff" });
    expect(forged.status).toBe(200);
    const sent = await request("GET /api/v1/jobs?search=%C3%A9t%C3%A9&limit=1 HTTP/1.1", auth());
    expect(sent.status).toBe(200);
    expect(json(sent).links.first).toContain("search=%C3%A9t%C3%A9");
  });

  it("answers an absolute-form request target as its path, on the target's host", async () => {
    const answer = await request(`GET http://api.example.com/api/v1/clients?limit=1 HTTP/1.1`, auth());
    expect(answer.status).toBe(200);
    expect(json(answer).links.first).toBe("http://api.example.com/api/v1/clients?limit=1&page=1");
  });

  it("keeps the connection's scheme in links whatever X-Forwarded-Proto a client sends", async () => {
    const answer = await request("GET /api/v1/clients?limit=1 HTTP/1.1", {
      ...auth(),
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "evil.test",
    });
    expect(answer.status).toBe(200);
    expect(json(answer).links.first).toBe(`http://127.0.0.1:${PORT}/api/v1/clients?limit=1&page=1`);
  });

  it.each([
    ["a NUL in the request line", "GET /api/v1/me\u0000x HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["Content-Length: abc", "POST /api/v1/clients HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"],
    ["a lowercase method", "get /api/v1/me HTTP/1.1\r\nHost: x\r\n\r\n"],
  ])("answers a request Node cannot parse (%s) with a JSON 400", async (_, bytes) => {
    const answer = await raw(bytes);
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe("close");
    expect(json(answer).message).toMatch(/not valid HTTP/);
  });

  describe("the sweep: edges of the door", () => {
    const withBody = (line: string, headers: Record<string, string>, body: string) =>
      raw(
        `${line}\r\n${Object.entries({
          Host: `127.0.0.1:${PORT}`,
          Connection: "close",
          ...headers,
          "Content-Length": String(Buffer.byteLength(body)),
        })
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join("")}\r\n${body}`,
      );
    const unreadableForm = { "Content-Type": "multipart/form-data; boundary=x" };

    /** An answer under /api/: JSON, the request id in the header and, for an error, in the body. */
    function expectJsonWithId(answer: RawAnswer, status: number) {
      expect(answer.status).toBe(status);
      const id = answer.headers["x-request-id"];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const body = json(answer);
      expect(body.request_id).toBe(id);
      return body;
    }

    it.each([
      ["/api/health", "GET, HEAD"],
      ["/api/live", "GET, HEAD"],
      ["/api/auth/session", "GET, POST"],
      ["/api/cron/webhooks", "GET"],
    ])("answers TRACE %s with a JSON 405 and Allow", async (path, allow) => {
      const answer = await request(`TRACE ${path} HTTP/1.1`);
      expectJsonWithId(answer, 405);
      expect(answer.headers.allow).toBe(allow);
    });

    it("answers TRACE on a page with a plain 405, not a 500", async () => {
      const answer = await request("TRACE /signin HTTP/1.1");
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST");
    });

    it.each(["GET", "POST", "DELETE"])("answers %s * with a JSON 400 and a request id", async (method) => {
      const answer = await request(`${method} * HTTP/1.1`);
      expect(answer.status).toBe(400);
      expect(json(answer).request_id).toBe(answer.headers["x-request-id"]);
    });

    it("answers OPTIONS * with a 204 and a request id", async () => {
      const answer = await request("OPTIONS * HTTP/1.1");
      expect(answer.status).toBe(204);
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    });

    it.each(["/api/foo", "/api/v2/me", "/api/v1x", "/api"])(
      "answers an unreadable multipart body to %s with a JSON 404",
      async (path) => {
        const answer = await withBody(`POST ${path} HTTP/1.1`, unreadableForm, "garbage");
        expectJsonWithId(answer, 404);
      },
    );

    it("answers an absolute-form target with an empty host with a JSON 400", async () => {
      const answer = await request("GET http:///api/v1/me HTTP/1.1", auth());
      expectJsonWithId(answer, 400);
    });

    it.each([
      ["garbage", "\u0001\u0002\u0003 nonsense\r\n\r\n", 400],
      ["headers past Node's limit", `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(140_000)}\r\n\r\n`, 431],
    ])("answers %s from the server's own error handler with a request id", async (_, bytes, status) => {
      const answer = await raw(bytes);
      expectJsonWithId(answer, status);
    });

    it("answers a HEAD with headers past Node's limit without a body", async () => {
      const answer = await raw(`HEAD /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(140_000)}\r\n\r\n`);
      expect(answer.status).toBe(431);
      expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.body).toBe("");
    });

    it("answers an expectation Node cannot meet with a JSON 417", async () => {
      const answer = await request("GET /api/v1/me HTTP/1.1", { ...auth(), Expect: "foo" });
      expectJsonWithId(answer, 417);
    });

    it.each([undefined, "Bearer nonsense", "Bearer cjt_unknownunknownunknownunknownunknown123456"])(
      "answers a method the path lacks with a 405 whatever the token (%s), with rate-limit headers",
      async (authorization) => {
        const answer = await request(
          "DELETE /api/v1/me HTTP/1.1",
          authorization ? { Authorization: authorization } : {},
        );
        expectJsonWithId(answer, 405);
        expect(answer.headers.allow).toBe("GET, OPTIONS");
        expect(answer.headers["x-ratelimit-limit"]).toBeTruthy();
      },
    );

    it("gives the door's own answers under /api/v1 rate-limit headers", async () => {
      for (const line of [
        "PROPFIND /api/v1/clients HTTP/1.1",
        "GET /api/v1//me HTTP/1.1",
        "GET /api/v1/me/ HTTP/1.1",
      ]) {
        const answer = await request(line);
        expect(answer.headers["x-ratelimit-limit"], line).toBeTruthy();
        expect(json(answer).request_id, line).toBe(answer.headers["x-request-id"]);
      }
    });

    it("wrote no stack trace to the server's log for any of them", () => {
      expect(serverOutput()).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    });
  });
});
