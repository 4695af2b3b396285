// A full disk under the database, for real: a small tmpfs (64 MB: the embedded database takes about 43) holds the
// embedded database's folder (PGlite), filler files take its last byte, and writes are counted.
// Every write is a JSON 503 with Retry-After (SQLSTATE 53100, "could not extend file"), never a 500, and
// /api/health says the database cannot write. Mounting needs root (the CI machine's user); elsewhere it is skipped.
// PostgreSQL raises the same 53100 (tests/unit/database-faults.test.ts maps its class 53); it is not filled here: a
// tablespace on a small disk under the shared server PANICked it at a checkpoint once the disk was gone.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import * as clientsRoute from "@/app/api/v1/clients/route";
import { closeDatabase } from "@/lib/db/client";
import { call, tokenFor } from "../support/api";

const postgres = !!process.env.DATABASE_URL;
const root = process.getuid?.() === 0;
let mountPoint = "";
let mounted = false;
let token: string;

function mountSmallDisk(megabytes: number) {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m,mode=0777`, "tmpfs", mountPoint]);
    return true;
  } catch {
    return false;
  }
}

/** Writes filler files until the disk refuses a byte more. */
async function fillDisk() {
  const block = randomBytes(1 << 20);
  for (let i = 0; ; i++) {
    try {
      await writeFile(path.join(mountPoint, `filler-${i}`), block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      // The last partial megabyte: fill byte by byte in smaller steps.
      for (const size of [65_536, 4_096, 512, 1]) {
        for (let j = 0; ; j++) {
          try {
            await writeFile(path.join(mountPoint, `filler-${i}-${size}-${j}`), block.subarray(0, size));
          } catch {
            break;
          }
        }
      }
      return;
    }
  }
}

const health = async () => {
  const response = await healthRoute.GET(new Request("http://localhost/api/health"));
  return { status: response.status, body: await response.json() };
};
const createClient = () =>
  call(clientsRoute, "POST", "clients", {
    token,
    body: { name: `Disk full ${randomBytes(4).toString("hex")}`, notes: "x".repeat(1_000) },
  });

beforeAll(async () => {
  if (postgres || !root) return;
  mountPoint = await mkdtemp(path.join(tmpdir(), "cjt-full-disk-"));
  mounted = mountSmallDisk(64);
  if (!mounted) return;
  await closeDatabase();
  const dataDir = path.join(mountPoint, "pglite");
  await cp(inject("templateDatabase"), dataDir, { recursive: true });
  vi.stubEnv("PGLITE_DATA_DIR", dataDir);
  token = await tokenFor("owner@acme.test");
});

afterAll(async () => {
  if (!mounted) return;
  await closeDatabase();
  vi.unstubAllEnvs();
  execFileSync("umount", ["-l", mountPoint]);
  await rm(mountPoint, { recursive: true, force: true });
});

describe.skipIf(postgres || !root)("a full disk under the database", () => {
  it("answers every write with a JSON 503 and Retry-After, and /api/health says the database cannot write", async () => {
    expect(mounted).toBe(true);
    expect((await createClient()).status).toBe(201);
    expect((await health()).status).toBe(200);

    await fillDisk();
    // Writes may still fit in pages that had room (PostgreSQL's last page of the table, its buffers); once one is
    // refused, every later one is too while the disk stays full. None is a 500.
    const answers = [];
    while (answers.length < 200 && answers.at(-1)?.status !== 503) answers.push(await createClient());
    const firstRefused = answers.length;
    for (let i = 0; i < 40; i++) answers.push(await createClient());
    const statuses = answers.map((res) => res.status);
    expect(statuses.slice(0, firstRefused - 1).every((status) => status === 201)).toBe(true);
    expect(statuses.slice(firstRefused - 1)).toEqual(Array(41).fill(503));
    for (const res of answers.filter((answer) => answer.status === 503)) {
      expect(res.body).toEqual({ message: expect.stringMatching(/disk|space|store/i) });
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }

    const report = await health();
    expect(report.status).toBe(503);
    expect(report.body).toMatchObject({ status: "unavailable", database: { reachable: true, writable: false } });

    // Room again: writes succeed, and so does the health check once a write got through.
    execFileSync("sh", ["-c", `rm -f ${mountPoint}/filler-*`]);
    expect((await createClient()).status).toBe(201);
    const recovered = await health();
    expect(recovered.status).toBe(200);
    expect(recovered.body.database.writable).toBe(true);
  });
});
