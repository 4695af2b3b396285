// A TCP proxy that stands between the app and a service (PostgreSQL, the Upstash emulator) and breaks the link on
// demand, the way networks and restarts do: refuse new connections, cut the open ones mid-stream, accept and never
// answer (a blackholed host), or delay every chunk. Test tooling.
import { createConnection, createServer, type Server, type Socket } from "node:net";

export type FaultMode = "pass" | "refuse" | "blackhole" | "slow";

export interface FaultProxy {
  /** Where the app connects instead of the service. */
  readonly port: number;
  /** The target URL with its host and port swapped for the proxy's. */
  via(url: string): string;
  /** The fault for new connections and, for blackhole and slow, for data on open ones too. */
  set(mode: FaultMode, options?: { delayMs?: number }): Promise<void>;
  /** Cuts every open connection at once (both ends), as a crash or restart of the service does. */
  drop(): void;
  /** Cuts each open connection the next time the app sends on it: a restart the app has not noticed yet. */
  dropOnNextSend(): void;
  readonly connections: number;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream: Socket;
  cutOnSend: boolean;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = "pass";
  let delayMs = 0;
  const links = new Set<Link>();

  // Each direction forwards in order; in slow mode every chunk waits first, in blackhole mode nothing passes.
  const forward = (from: Socket, to: Socket, link: Link, fromClient: boolean) => {
    let queue = Promise.resolve();
    from.on("data", (chunk) => {
      if (fromClient && link.cutOnSend) return cut(link);
      if (mode === "blackhole") return;
      queue = queue.then(async () => {
        if (mode === "slow") await new Promise((r) => setTimeout(r, delayMs));
        if (!to.destroyed) to.write(chunk);
      });
    });
  };
  const cut = (link: Link) => {
    links.delete(link);
    link.client.destroy();
    link.upstream.destroy();
  };
  const dropAll = () => {
    for (const link of [...links]) cut(link);
  };

  const server: Server = createServer((client) => {
    if (mode === "refuse") return client.destroy();
    const upstream = mode === "blackhole" ? null : createConnection(target);
    const link: Link = { client, upstream: upstream ?? client, cutOnSend: false };
    if (!upstream) {
      // Accepted and never answered: the app's own timeouts are all that end the wait.
      client.on("error", () => {});
      client.on("close", () => links.delete(link));
      links.add(link);
      return;
    }
    links.add(link);
    forward(client, upstream, link, true);
    forward(upstream, client, link, false);
    for (const socket of [client, upstream]) {
      socket.on("error", () => cut(link));
      socket.on("close", () => cut(link));
    }
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  let port = 0;
  await listen();
  port = (server.address() as { port: number }).port;

  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    async set(next, options = {}) {
      // A service that refuses is down: its open connections are gone, and its port is closed (ECONNREFUSED).
      if (next === "refuse" && server.listening) {
        dropAll();
        await new Promise((r) => server.close(r));
      }
      if (next !== "refuse" && !server.listening) await listen();
      // Bytes swallowed by a blackhole leave a protocol stream that cannot go on.
      if (mode === "blackhole" && next !== "blackhole") dropAll();
      mode = next;
      delayMs = options.delayMs ?? 0;
    },
    drop: dropAll,
    dropOnNextSend() {
      for (const link of links) link.cutOnSend = true;
    },
    get connections() {
      return links.size;
    },
    async close() {
      dropAll();
      if (server.listening) await new Promise((r) => server.close(r));
    },
  };
}
