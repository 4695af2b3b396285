// A process with the API's front door (lib/http/before-next.ts, lib/api/in-flight.ts) before a stand-in for Next that
// refuses every request 401 without reading its body, as authentication does: its memory is measured from outside
// (tests/faults/read-ahead.test.ts). Run with `node --import tsx`; prints its port.
import http from "node:http";
import { admitOrQueue } from "@/lib/api/in-flight";
import { installBeforeNext } from "@/lib/http/before-next";

installBeforeNext(admitOrQueue);
const server = http.createServer((_request, response) => {
  response.writeHead(401, { "Content-Type": "application/json" }).end('{"message":"Unauthenticated"}');
});
server.listen(0, "127.0.0.1", () => {
  console.log(`port ${(server.address() as { port: number }).port}`);
});
