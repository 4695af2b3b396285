// A real webhook receiver on loopback for the tests: records every request (headers and body as received) and
// answers with the statuses queued for it (200 when none is), optionally after a delay.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses for the next requests, in order; then 200. */
  answers: number[];
  /** Milliseconds to wait before answering. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: "", received: [], answers: [], delayMs: 0, close: async () => {} };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = receiver.answers.shift() ?? 200;
      setTimeout(() => {
        response.writeHead(status, { "content-type": "text/plain" });
        response.end(status < 300 ? "ok" : `failed with ${status} ${"x".repeat(2000)}`);
      }, receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
