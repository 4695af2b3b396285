// Protocol-level garbage that Node's parser refuses before any request exists (a NUL in the request line,
// `Content-Length: abc`, a lowercase method, headers past the limit) gets Node's bare answer with no body by
// default. The server's `clientError` handler answers it as JSON instead (decisions.md, Wire format), where the
// connection still allows an answer: nothing of another answer written yet. Like every answer, it carries a request
// id (in the body too), and an answer to a HEAD has no body.
import type { Socket } from "node:net";
import { newRequestId } from "@/lib/observability/request-id";
import { API_HEADERS } from "./security-headers";

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "The request's headers are too large."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "The request was not received in time."],
};
const BAD_REQUEST: [number, string, string] = [400, "Bad Request", "The request is not valid HTTP."];

/** Answers a request Node could not parse with a JSON error, then closes the connection (as Node's default does). */
export function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) {
  const sent = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code !== "ECONNRESET" && socket.writable && !sent) {
    const [status, reason, message] = ANSWERS[error.code ?? ""] ?? BAD_REQUEST;
    const requestId = newRequestId();
    const head = error.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
    const body = head ? "" : JSON.stringify({ message, request_id: requestId });
    const headers = {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(JSON.stringify({ message, request_id: requestId })),
      ...API_HEADERS,
      "X-Request-Id": requestId,
      Connection: "close",
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${status} ${reason}\r\n${lines.join("")}\r\n${body}`);
  }
  socket.destroy(error);
}
