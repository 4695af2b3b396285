// Tenant B's client in the noisy-neighbour part (bench/noisy.ts), run in a worker thread of its own: B's requests are
// timed on an event loop and a heap that A's generator does not share. In one thread, A's thousands of sockets and
// their garbage collection (pauses of 15-43 ms, bench/RESULTS.md) delayed B's requests before they were sent, and
// counted in B's latency what a real firm's client, on a machine of its own, would never see.

import http from "node:http";
import { parentPort, Worker, workerData } from "node:worker_threads";
import { type Call, openLoop, type Sent, send } from "./load";

interface Settings {
  port: number;
  token: string;
  /** B's mix, in turn; `{n}` in a body is the request's number. */
  mix: Call[];
  rate: number;
  timeoutMs: number;
}

type Command = { type: "warm" } | { type: "start" } | { type: "stop" };
type Report = { type: "warmed" } | { type: "sent"; sent: Sent[] };

/** B's client: `warm` sends the mix once, one after another; `run` sends it at B's rate until its `stop`. */
export class TenantBClient {
  private readonly worker: Worker;

  constructor(settings: Settings) {
    this.worker = new Worker(new URL(import.meta.url), { workerData: settings });
    this.worker.unref();
  }

  private ask(command: Command, answer: Report["type"]) {
    return new Promise<Report>((resolve, reject) => {
      const onMessage = (report: Report) => {
        if (report.type !== answer) return;
        this.worker.off("message", onMessage);
        this.worker.off("error", reject);
        resolve(report);
      };
      this.worker.on("message", onMessage);
      this.worker.once("error", reject);
      this.worker.postMessage(command);
    });
  }

  async warm() {
    await this.ask({ type: "warm" }, "warmed");
  }

  /** Starts B's open loop; its `stop` ends it and resolves to every request's outcome once all have ended. */
  run() {
    this.worker.postMessage({ type: "start" } satisfies Command);
    return { stop: async () => ((await this.ask({ type: "stop" }, "sent")) as { sent: Sent[] }).sent };
  }

  close() {
    return this.worker.terminate();
  }
}

function serve(port: NonNullable<typeof parentPort>, { port: appPort, token, mix, rate, timeoutMs }: Settings) {
  const agent = new http.Agent({ keepAlive: true });
  const call = (i: number, due: number) => {
    const item = mix[i % mix.length];
    return send(agent, appPort, token, { ...item, body: item.body?.replace("{n}", String(i)) }, due, timeoutMs);
  };
  // The phase's open loop, ended by the next `stop` (phases run one after another).
  let over = false;
  let running: Promise<Sent[]> = Promise.resolve([]);
  port.on("message", async (command: Command) => {
    if (command.type === "warm") {
      for (const [i] of mix.entries()) await call(i, performance.now());
      port.postMessage({ type: "warmed" } satisfies Report);
    } else if (command.type === "start") {
      over = false;
      running = openLoop(rate, () => over, call);
    } else {
      over = true;
      port.postMessage({ type: "sent", sent: await running } satisfies Report);
    }
  });
}

if (parentPort && workerData) serve(parentPort, workerData as Settings);
