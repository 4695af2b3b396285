// Strangers cost little before their token is known (decisions.md, Capacity; lib/http/body-arrival.ts): the front door
// reads a body ahead only for a well-formed token of this product, the bytes it holds for unread bodies are bounded
// across the instance (API_READ_AHEAD_BYTES), and given back. Run against a process with the real front door before
// a stand-in for Next that refuses every request 401 unread, as authentication does (tests/support/front-door-child.ts),
// so that its memory is measured from outside (/proc/<pid>/status).
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateTokenValue } from "@/lib/tokens";

const MB = 1024 * 1024;
let children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children = [];
});

/** Starts the front door in a process of its own; resolves its port and pid. */
function startDoor(env: Record<string, string> = {}): Promise<{ port: number; pid: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/front-door-child.ts"], {
    env: { ...process.env, API_BODY_DEADLINE_MS: "30000", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const port = /port (\d+)/.exec(out)?.[1];
      if (port) resolve({ port: Number(port), pid: child.pid! });
    });
    child.once("exit", (code) => reject(new Error(`front door exited ${code}`)));
  });
}

/** The process's resident memory, in MB, as the kernel counts it. */
const residentMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

interface Upload {
  socket: Socket;
  /** The status line's code of the answer, once one came; null if the connection closed without one. */
  answer: Promise<number | null>;
  /** Resolves once the bytes sent have left this process (or the connection failed). */
  sent: Promise<void>;
  /** Resolves once the connection has closed. */
  closed: Promise<void>;
}

const body = Buffer.alloc(MB, "x");

/** A POST declaring a 1 MB body of which `bytes` are sent, the rest never. */
function upload(port: number, bytes: number, authorization?: string): Upload {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  const head =
    `POST /api/v1/clients HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${MB}\r\n` +
    (authorization ? `Authorization: ${authorization}\r\n` : "") +
    "\r\n";
  let received = "";
  const answer = new Promise<number | null>((resolve) => {
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      if (status) resolve(Number(status));
    });
    socket.once("close", () => resolve(null));
  });
  const sent = new Promise<void>((resolve) => {
    socket.write(head);
    socket.write(body.subarray(0, bytes), () => resolve());
    socket.once("close", () => resolve());
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, answer, sent, closed };
}

describe("the front door's read-ahead", () => {
  it("hands on a request without a token of this product at once, its body unread, and closes its connection", async () => {
    const { port } = await startDoor();
    // Half of the body sent, the rest never: answered (401, by the stand-in for authentication), not held for it,
    // and the connection closed by the server (the rest of the body is not waited for either).
    for (const authorization of [undefined, "Bearer not-a-token", `Basic ${Buffer.from("a:b").toString("base64")}`]) {
      const sent = upload(port, MB / 2, authorization);
      expect(await sent.answer, String(authorization)).toBe(401);
      await sent.closed;
    }
  }, 20_000);

  it("bounds the bytes read ahead across the instance: past API_READ_AHEAD_BYTES a 503, and the bytes come back", async () => {
    const { port } = await startDoor({ API_READ_AHEAD_BYTES: String(2.5 * MB) });
    // Well-formed tokens (anyone can make one: the checksum is no secret), each body half sent.
    const first = upload(port, MB / 2, `Bearer ${generateTokenValue()}`);
    const second = upload(port, MB / 2, `Bearer ${generateTokenValue()}`);
    await Promise.all([first.sent, second.sent]);
    // Two bodies of 1 MB held; a third would pass 2.5 MB: refused, its connection closed.
    const third = upload(port, MB / 2, `Bearer ${generateTokenValue()}`);
    expect(await third.answer).toBe(503);
    // The first goes away: its megabyte is given back, and the next body is read ahead whole and handed on.
    first.socket.destroy();
    // (Given back once the server has seen the connection close: tried again until then.)
    const later: Upload[] = [];
    await vi.waitFor(
      async () => {
        later.push(upload(port, MB, `Bearer ${generateTokenValue()}`));
        expect(await later.at(-1)!.answer).toBe(401);
      },
      { timeout: 10_000, interval: 100 },
    );
    for (const { socket } of [second, third, ...later]) socket.destroy();
  }, 20_000);

  it("keeps the server within idle + 100 MB while 600 strangers hold 1 MB bodies open, and after they go", async () => {
    const { port, pid } = await startDoor();
    // Settled and warmed: a few ordinary requests first.
    for (let i = 0; i < 3; i++) expect(await upload(port, MB).answer).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = residentMb(pid);
    // 300 without a token, 300 with forged well-formed ones: every body sent but its last byte, then held open.
    const uploads = Array.from({ length: 600 }, (_, i) =>
      upload(port, MB - 1, i % 2 === 0 ? undefined : `Bearer ${generateTokenValue()}`),
    );
    await Promise.all(uploads.map(({ sent }) => sent));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const holding = residentMb(pid);
    console.log(`read-ahead: idle ${idle.toFixed(0)} MB, 600 strangers holding 1 MB bodies ${holding.toFixed(0)} MB`);
    const statuses = await Promise.all(
      uploads.map(({ answer }) => Promise.race([answer, new Promise((resolve) => setTimeout(resolve, 1_000, "none"))])),
    );
    for (const { socket } of uploads) socket.destroy();
    await Promise.all(uploads.map(({ closed }) => closed));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = residentMb(pid);
    console.log(`read-ahead: ${after.toFixed(0)} MB 2 s after the 600 strangers went`);
    // Strangers are answered (401 unread, or 503 past the budget) rather than held; at most the budget's worth is.
    const unanswered = statuses.filter((status) => status === "none").length;
    expect(unanswered).toBeLessThanOrEqual(32);
    expect(holding - idle, `idle ${idle.toFixed(0)} MB, holding ${holding.toFixed(0)} MB`).toBeLessThan(100);
    // And nothing grows once they have gone (the bytes held are given back, not kept by the instance).
    expect(after - idle, `idle ${idle.toFixed(0)} MB, after ${after.toFixed(0)} MB`).toBeLessThan(100);
  }, 60_000);
});
