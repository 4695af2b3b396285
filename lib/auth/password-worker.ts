// The password worker thread (lib/auth/password-hash.ts starts it): bcrypt off the event loop. A file of its own,
// referenced with `new URL(…, import.meta.url)`, so that the bundler builds it with bcryptjs and every host's file
// tracer ships both (a worker evaluated from a source string loads bcryptjs by name, which no tracer can follow).
import { parentPort } from "node:worker_threads";
import bcrypt from "bcryptjs";

interface Job {
  id: number;
  op: "compare" | "hash";
  password: string;
  hash?: string;
  cost: number;
}

parentPort?.on("message", async ({ id, op, password, hash, cost }: Job) => {
  try {
    const result = op === "compare" ? await bcrypt.compare(password, hash ?? "") : await bcrypt.hash(password, cost);
    parentPort?.postMessage({ id, result });
  } catch (error) {
    parentPort?.postMessage({ id, error: String(error) });
  }
});
