// A loopback server that speaks Upstash Redis's REST protocol on top of a local Redis, so that @upstash/redis and
// @upstash/ratelimit run their real code paths in development and tests. Tooling, not product code.
// `npm run upstash:emulator` starts it and prints the two settings that point the app at it.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { createClient, ErrorReply, MultiErrorReply } from "redis";
import { readCommandLine } from "./usage";

type Command = (string | number)[];
type Reply = { result: unknown } | { error: string };

export interface UpstashEmulator {
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startUpstashEmulator({
  redisUrl = "redis://127.0.0.1:6379",
  token = "local-upstash-token",
  port = 0,
} = {}): Promise<UpstashEmulator> {
  const redis = createClient({ url: redisUrl });
  redis.on("error", (error) => console.error("Upstash emulator: Redis error", error));
  await redis.connect();

  // Redis 7.0 rejects the `#!lua flags=...` first line of every @upstash/ratelimit script (Upstash accepts it): run
  // scripts without it, and map the sha1 the client computed over the original to the sha1 of what Redis has.
  const redisSha = new Map<string, string>();
  const adapt = ([name, ...rest]: Command): string[] => {
    const command = String(name).toUpperCase();
    const args = rest.map(String);
    if (/^EVAL(_RO)?$/.test(command) && args[0]?.startsWith("#!")) {
      const stripped = args[0].slice(args[0].indexOf("\n") + 1);
      redisSha.set(sha1(args[0]), sha1(stripped));
      return [command, stripped, ...args.slice(1)];
    }
    if (/^EVALSHA(_RO)?$/.test(command)) return [command, redisSha.get(args[0]) ?? args[0], ...args.slice(1)];
    return [command, ...args];
  };

  const pipeline = (commands: Command[]) =>
    Promise.allSettled(commands.map((command) => redis.sendCommand(adapt(command))));
  const transaction = async (commands: Command[]): Promise<PromiseSettledResult<unknown>[]> => {
    const multi = redis.multi();
    for (const command of commands) multi.addCommand(adapt(command));
    try {
      return (await multi.exec()).map((value) => ({ status: "fulfilled", value }));
    } catch (error) {
      if (!(error instanceof MultiErrorReply)) throw error;
      return error.replies.map((value: unknown) =>
        value instanceof ErrorReply ? { status: "rejected", reason: value } : { status: "fulfilled", value },
      );
    }
  };

  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
    // The client asks for strings in base64 (its default), so that any bytes survive JSON.
    const encode = request.headers["upstash-encoding"] === "base64" ? base64 : (value: unknown) => value;
    const reply = (outcome: PromiseSettledResult<unknown>): Reply =>
      outcome.status === "fulfilled"
        ? { result: encode(outcome.value) }
        : { error: String((outcome.reason as Error).message ?? outcome.reason) };
    try {
      const body = JSON.parse(await readBody(request));
      if (request.url === "/pipeline") return send(200, (await pipeline(body)).map(reply));
      if (request.url === "/multi-exec") return send(200, (await transaction(body)).map(reply));
      const [single] = (await pipeline([body])).map(reply);
      return send("error" in single ? 400 : 200, single);
    } catch (error) {
      return send(400, { error: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await redis.close();
    },
  };
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

function base64(value: unknown): unknown {
  if (typeof value === "string") return Buffer.from(value).toString("base64");
  return Array.isArray(value) ? value.map(base64) : value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  readCommandLine(
    `Usage: npm run upstash:emulator

Serves Upstash Redis's REST protocol on a local Redis and prints the two settings that point the app at it.
Settings: REDIS_URL (redis://127.0.0.1:6379), UPSTASH_EMULATOR_PORT (8079), UPSTASH_REDIS_REST_TOKEN (random).`,
    {},
  );
  const emulator = await startUpstashEmulator({
    redisUrl: process.env.REDIS_URL,
    token: process.env.UPSTASH_REDIS_REST_TOKEN || undefined,
    port: Number(process.env.UPSTASH_EMULATOR_PORT ?? 8079),
  });
  console.log(
    `Upstash REST emulator on Redis ${process.env.REDIS_URL ?? "redis://127.0.0.1:6379"}. Point the app at it with:`,
  );
  console.log(`  UPSTASH_REDIS_REST_URL=${emulator.url}\n  UPSTASH_REDIS_REST_TOKEN=${emulator.token}`);
}
