// The development and test stand-in for Upstash: the parts of the REST protocol that @upstash/redis relies on.
import { createHash } from "node:crypto";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/scripts/upstash-emulator";

let emulator: UpstashEmulator;
let redis: Redis;
const key = (name: string) =>
  `test:emulator:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}:${name}`;

beforeAll(async () => {
  emulator = await startUpstashEmulator();
  redis = new Redis({ url: emulator.url, token: emulator.token, retry: false });
});
afterAll(async () => {
  await emulator.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${emulator.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${emulator.token}`, ...headers },
    body: JSON.stringify(body),
  });

describe("Upstash REST emulator", () => {
  it("runs single commands, pipelines and transactions for @upstash/redis, non-ASCII values intact", async () => {
    const name = key("greeting");
    expect(await redis.set(name, "héllo wörld", { ex: 60 })).toBe("OK");
    expect(await redis.get(name)).toBe("héllo wörld");

    const pipeline = redis.pipeline();
    pipeline.incr(`${name}:n`).incr(`${name}:n`).expire(`${name}:n`, 60);
    expect(await pipeline.exec()).toEqual([1, 2, 1]);

    const multi = redis.multi();
    multi.get(name).del(name);
    expect(await multi.exec()).toEqual(["héllo wörld", 1]);
  });

  it("answers each command of a pipeline or transaction with its result or its error", async () => {
    const name = key("text");
    const commands = [
      ["SET", name, "x", "EX", 60],
      ["INCR", name],
      ["GET", name],
    ];
    for (const path of ["/pipeline", "/multi-exec"]) {
      const res = await post(path, commands);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([
        { result: "OK" },
        { error: expect.stringMatching(/not an integer/) },
        { result: "x" },
      ]);
    }
  });

  it("encodes strings in base64 when asked to", async () => {
    const name = key("encoded");
    await post("/", ["SET", name, "ok?", "EX", 60]);
    const res = await post("/", ["GET", name], { "Upstash-Encoding": "base64" });
    expect(await res.json()).toEqual({ result: Buffer.from("ok?").toString("base64") });
  });

  it("runs @upstash/ratelimit's scripts, whose shebang flags Redis 7.0 rejects, by the client's sha1", async () => {
    const script = `#!lua flags=allow-key-locking\nreturn redis.call("INCR", KEYS[1])`;
    const name = key("script");
    expect(await redis.eval(script, [name], [])).toBe(1);
    expect(await redis.evalsha(createHash("sha1").update(script).digest("hex"), [name], [])).toBe(2);
    await redis.del(name);
  });

  it("refuses a wrong token", async () => {
    const res = await fetch(emulator.url, {
      method: "POST",
      headers: { Authorization: "Bearer wrong" },
      body: '["PING"]',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized" });
  });
});
