// One instance of a Vercel function, started by tests/vercel/runtime.ts in a Node process of its own, its working
// folder holding only the function's files. It loads the function's handler as Vercel's Node runtime does (@vercel/node's
// serverless-handler: the module's export as an http listener, or, with `useWebApi`, a function from Request to
// Response), gives every invocation Vercel's request context (globalThis[Symbol.for("@vercel/request-context")], whose
// `waitUntil` Next's launcher hands to after()), and tells the runtime when an invocation's answer is out and everything
// passed to its waitUntil has settled: the runtime then freezes the process until its next invocation.
// Plain JavaScript with Node's own modules only: nothing of it may resolve a package the function lacks.
import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, Server } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";

const [functionDir, handlerFile, mode, invocationHeader, waitUntilLimitMs] = process.argv.slice(2);

const contexts = new AsyncLocalStorage();
Object.defineProperty(globalThis, Symbol.for("@vercel/request-context"), {
  configurable: true,
  enumerable: false,
  value: { get: () => contexts.getStore() },
});

// Vercel's runtime is closed: nothing says it hands requests to the app through http.Server.prototype.emit, which an
// app could patch. This one does not: its server keeps the emit Node had before the function's code loaded.
const nodeEmit = Server.prototype.emit;

process.chdir(functionDir);
const handlerPath = path.join(functionDir, handlerFile);
let handler = createRequire(handlerPath)(handlerPath);
while (typeof handler !== "function" && handler?.default) handler = handler.default;

const server = createServer({ maxHeaderSize: 65536 }, (req, res) => {
  const invocation = req.headers[invocationHeader];
  delete req.headers[invocationHeader];
  const pending = new Set();
  const context = {
    waitUntil(promise) {
      pending.add(Promise.resolve(promise).catch((error) => console.error("waitUntil promise rejected:", error)));
    },
    headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
  };
  const answered = new Promise((resolve) => res.once("close", resolve));
  contexts.run(context, () => {
    const served = mode === "web" ? serveWeb(req, res) : handler(req, res);
    Promise.resolve(served).catch((error) => {
      console.error("The function's handler threw:", error);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
      res.end();
    });
  });
  answered.then(() => settle(pending)).then(() => process.send({ type: "settled", invocation }));
});

/** Waits for every promise passed to waitUntil, including those added while waiting, up to the function's limit. */
async function settle(pending) {
  const limit = new Promise((resolve) => setTimeout(resolve, Number(waitUntilLimitMs), "limit").unref());
  while (pending.size > 0) {
    const batch = [...pending];
    pending.clear();
    if ((await Promise.race([Promise.all(batch), limit])) === "limit") {
      console.error(`waitUntil work still running after ${waitUntilLimitMs} ms: the instance is frozen anyway`);
      return;
    }
  }
}

async function serveWeb(req, res) {
  const url = new URL(req.url, `${req.headers["x-forwarded-proto"] ?? "http"}://${req.headers.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of [value].flat()) headers.append(name, one);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: "half",
  });
  const response = await handler(request);
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.writeHead(response.status);
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}

server.emit = nodeEmit;
server.listen(0, "127.0.0.1", () => process.send({ type: "ready", port: server.address().port }));
