// Open-loop HTTP load for the noisy-neighbour part (bench/noisy.ts) and its tenant B client (bench/noisy-b.ts).

import http from "node:http";
import { sleep } from "./report";

/** One request of a mix: a GET path, or a method, a path and a JSON body. */
export interface Call {
  method: string;
  path: string;
  body?: string;
}

export interface Sent {
  /** The answer's status, or a word for what happened instead. */
  outcome: string;
  /** From when the request was due to the end of its answer. */
  ms: number;
  /** The answer's body, when asked for (`keepBody`: a sync reads its next page's link). */
  body?: string;
}

export function send(
  agent: http.Agent,
  port: number,
  token: string,
  call: Call,
  due: number,
  timeoutMs: number,
  { keepBody = false } = {},
) {
  return new Promise<Sent>((resolve) => {
    let settled = false;
    let body = "";
    const finish = (outcome: string) => {
      if (settled) return;
      settled = true;
      resolve({ outcome, ms: performance.now() - due, ...(keepBody && { body }) });
    };
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method: call.method,
        path: call.path,
        agent,
        timeout: timeoutMs,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: "application/json",
          ...(call.body !== undefined && { "Content-Type": "application/json" }),
          "Content-Length": Buffer.byteLength(call.body ?? ""),
        },
      },
      (response) => {
        if (keepBody) {
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            body += chunk;
          });
        } else response.resume();
        response.on("end", () => finish(String(response.statusCode)));
        response.on("error", () => finish("cut"));
      },
    );
    request.on("timeout", () => {
      request.destroy();
      finish("timeout");
    });
    request.on("error", () => finish("socket error"));
    request.end(call.body);
  });
}

/** Sends `next(i)` at `rate` per second until `stopped()`, each timed from when it was due; resolves when all ended. */
export async function openLoop(
  rate: number,
  stopped: () => boolean,
  dispatch: (i: number, due: number) => Promise<Sent> | null,
): Promise<Sent[]> {
  const started = performance.now();
  const all: Promise<Sent>[] = [];
  for (let i = 0; !stopped(); i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    const sent = dispatch(i, due);
    if (sent) all.push(sent);
  }
  return Promise.all(all);
}
