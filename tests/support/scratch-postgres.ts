// A PostgreSQL cluster of the test's own (initdb in a temporary folder, on a free port), for faults that must not
// touch the shared server: stopping every process of it with SIGSTOP (a hung primary) and resuming it. Run as the
// postgres OS user when the test runs as root (PostgreSQL refuses root), as .ci/standby does.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./built-server";

/** The newest of this machine's PostgreSQL binaries (Debian's /usr/lib/postgresql/N/bin), if any. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  const bin = versions.map((version) => path.join(root, version, "bin")).findLast((dir) => existsSync(`${dir}/initdb`));
  return bin;
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, program: string, args: string[]) {
  const command = path.join(bin, program);
  if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" });
  else execFileSync(command, args, { stdio: "pipe" });
}

export interface ScratchCluster {
  /** postgresql://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** Stops the postmaster, then every process it started (backends, checkpointer, ...): nothing of it answers. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

export async function startScratchCluster(bin: string): Promise<ScratchCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), "cjt-scratch-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    await chown(dir, uid, gid);
  }
  const data = path.join(dir, "data");
  const port = await freePort();
  run(bin, "initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  // Durability off: the cluster lives for one test.
  const options = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", "-c fsync=off"];
  options.push("-c synchronous_commit=off", "-c full_page_writes=off");
  const log = path.join(dir, "server.log");
  run(bin, "pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", options.join(" "), "start"]);

  const postmaster = () => Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  /** The processes whose parent is the postmaster, from /proc (PostgreSQL starts no deeper ones). */
  const children = (parent: number) =>
    readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          // The parent is the 4th field, after the command in parentheses (which may itself hold spaces).
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent;
        } catch {
          return false; // ended meanwhile
        }
      })
      .map(Number);
  const signal = (pids: number[], name: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // ended meanwhile
      }
    }
  };
  let paused = false;
  const resume = () => {
    const main = postmaster();
    signal(children(main), "SIGCONT");
    signal([main], "SIGCONT");
    paused = false;
  };

  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    pause() {
      const main = postmaster();
      // The postmaster first, so that it starts no process after the others are listed.
      signal([main], "SIGSTOP");
      signal(children(main), "SIGSTOP");
      paused = true;
    },
    resume,
    async stop() {
      if (paused) resume();
      try {
        run(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
