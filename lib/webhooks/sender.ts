// One HTTP attempt of a delivery: a POST to the checked, pinned address, bounded in time (15 s for the whole
// answer) and in what is kept of the answer (1 KB). Redirects are not followed (a 3xx is a failure).
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { log } from "@/lib/core/log";
import { RefusedTarget, type Resolver, resolveTarget } from "./address";
import { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_LIMIT } from "./events";

export interface SendResult {
  /** The receiver's status, when it answered. */
  status?: number;
  body?: string;
  /** Why there was no answer (refused target, timeout, connection error). */
  error?: string;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs?: number;
  allowPrivate?: boolean;
  resolve?: Resolver;
}

export type Sender = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;

export function httpSender(options: SendOptions = {}): Sender {
  return (url, headers, body) => send(url, headers, body, options);
}

export async function send(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  { timeoutMs = DELIVERY_TIMEOUT_MS, allowPrivate, resolve }: SendOptions = {},
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(rawUrl, { allowPrivate, resolve });
  } catch (error) {
    const message = error instanceof RefusedTarget ? error.message : `Could not resolve the host: ${String(error)}`;
    return { error: message, durationMs: elapsed() };
  }
  // The connection goes to the address just checked, whatever the name resolves to by now.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((done) => {
    let finished = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      request.destroy();
      done({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target.url,
      {
        method: "POST",
        lookup: pinned,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "cjt-webhooks/1",
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const status = response.statusCode ?? 0;
        const answer = () =>
          finish({ status, body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8") });
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_BODY_LIMIT) answer();
        });
        response.on("end", answer);
        response.on("error", answer);
      },
    );
    const timer = setTimeout(
      () => finish({ error: `No complete answer within ${Math.round(timeoutMs / 1000)} s.` }),
      timeoutMs,
    );
    // Node's message names the address connected to ("connect ECONNREFUSED 10.0.0.5:443"): the log has it, the
    // delivery (which Admins read) only the code.
    request.on("error", (error: NodeJS.ErrnoException) => {
      log().warn({ kind: "webhook" }, `Webhook delivery to ${target.url.host} failed: ${error.message}`);
      finish({ error: `Connection failed (${error.code ?? "no answer"}).` });
    });
    request.end(body);
  });
}
