// A burst of wrong passwords against a running server with Upstash rate limits (issue 28, items 1-2): the real
// @upstash/ratelimit code runs against the local Redis through scripts/upstash-emulator.ts. The burst may neither
// switch the API's limits off (it once stalled the event loop past the Redis deadline, and every limit failed open)
// nor get more password checks than the sign-in limits allow. This server is this spec's own, on E2E_PORT + 1: it
// needs a low API limit and Upstash settings that the other specs' server must not have.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startUpstashEmulator, type UpstashEmulator } from "../scripts/upstash-emulator";
import { clientAddress, expect, test } from "./support";

const PORT = Number(process.env.E2E_PORT || 3250) + 1;
const dataDir = ".data/e2e-sign-in-burst";
const tokenFile = `${dataDir}-demo-token`;
const tokenPath = fileURLToPath(new URL(`../${tokenFile}`, import.meta.url));
const base = `http://localhost:${PORT}`;
const API_LIMIT = 30;
// Wrong passwords per email and address in 15 minutes (lib/auth/sign-in.ts).
const SIGN_IN_LIMIT = 10;
const SIGN_IN_WINDOW_MS = 15 * 60_000;

let emulator: UpstashEmulator;
let server: ChildProcess;
let serverLog = "";

test.describe.configure({ timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  emulator = await startUpstashEmulator();
  // Its own process group, so that stopping it also stops the next-server process that `next start` runs.
  server = spawn(
    "sh",
    ["-c", `rm -rf ${dataDir} ${tokenFile} && exec node node_modules/next/dist/bin/next start --port ${PORT}`],
    {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      detached: true,
      env: {
        ...process.env,
        PGLITE_DATA_DIR: dataDir,
        DEMO_TOKEN_FILE: tokenFile,
        DATABASE_URL: "",
        NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
        NEXTAUTH_URL: base,
        DEMO_SEED: "on",
        TRUST_PROXY: "true",
        NEXT_TELEMETRY_DISABLED: "1",
        UPSTASH_REDIS_REST_URL: emulator.url,
        UPSTASH_REDIS_REST_TOKEN: emulator.token,
        RATE_LIMIT_KEY_PREFIX: `${process.env.E2E_REDIS_PREFIX ?? "e2e"}:sign-in-burst:${randomBytes(6).toString("hex")}`,
        RATE_LIMIT_PER_MINUTE: String(API_LIMIT),
      },
    },
  );
  for (const stream of [server.stdout, server.stderr]) stream?.on("data", (chunk) => (serverLog += chunk));
  for (const deadline = Date.now() + 150_000; ; ) {
    if (
      await fetch(`${base}/signin`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`The server did not start:\n${serverLog}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server?.pid) process.kill(-server.pid);
  await emulator?.close();
});

/** The demo seed keeps its token in a file (never in a log). */
const demoToken = () => (existsSync(tokenPath) ? readFileSync(tokenPath, "utf8").trim() : undefined);

/** One sign-in attempt through next-auth's form POST, as the sign-in page sends it: the error code it ends with. */
async function signInAttempt(email: string, password: string, address: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers: { "X-Forwarded-For": address } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, "X-Forwarded-For": address },
    body: new URLSearchParams({ csrfToken, email, password }),
  });
  const location = new URL(response.headers.get("location") ?? "/", base);
  // A wrong password once the email's attempts wait also says how long the next one waits ("CredentialsSignin:wait=4").
  return (location.searchParams.get("error") ?? `status ${response.status}`).replace(/:wait=\d+$/, "");
}

test("100 parallel wrong passwords get at most the sign-in limit's checks and leave the API's limits on", async () => {
  // The demo seed's token of owner@acme.test, which the server prints once it has seeded (on first use).
  await fetch(`${base}/api/v1/me`);
  await expect.poll(() => demoToken(), { timeout: 60_000 }).toBeTruthy();
  const token = demoToken();
  const apiCall = async () =>
    (await fetch(`${base}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).status;

  // Sign-in counts in 15-minute windows, and at a window's end the sliding window forgives part of the last one's
  // count: the burst keeps clear of that moment, so that the limit it shows is the whole limit.
  const toWindowEnd = SIGN_IN_WINDOW_MS - (Date.now() % SIGN_IN_WINDOW_MS);
  if (toWindowEnd < 60_000) await new Promise((resolve) => setTimeout(resolve, toWindowEnd + 1_000));
  const attacker = clientAddress("sign-in burst");
  const apiDuringBurst: number[] = [];
  const apiStart = Date.now();
  const [errors] = await Promise.all([
    Promise.all(Array.from({ length: 100 }, () => signInAttempt("viewer@acme.test", "wrong", attacker))),
    (async () => {
      for (let call = 0; call < 10; call++) {
        apiDuringBurst.push(await apiCall());
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })(),
  ]);
  const apiAfter: { status: number; at: number }[] = [];
  for (let call = 0; call < API_LIMIT + 15; call++) apiAfter.push({ status: await apiCall(), at: Date.now() });
  const apiSeconds = (Date.now() - apiStart) / 1000;

  // (b) CredentialsSignin: the password was checked and was wrong. RateLimited: refused before any check.
  const counts = Object.fromEntries(
    [...new Set(errors)].map((error) => [error, errors.filter((e) => e === error).length]),
  );
  expect(counts).toEqual({ CredentialsSignin: SIGN_IN_LIMIT, RateLimited: 100 - SIGN_IN_LIMIT });
  // (a) 55 calls: the limit's 30 answered, and as many more as the sliding window forgives while they run (across
  // a minute's end it weighs the last minute less, by the part of a minute that has passed); once one is refused,
  // the rest are refused but for what the window frees in the time they take (and one more where a minute ends and
  // its rounding turns). A slow machine stretches that time, so it is measured, not assumed.
  const statuses = [...apiDuringBurst, ...apiAfter.map(({ status }) => status)];
  const forgiven = (ms: number) => Math.ceil(API_LIMIT * (ms / 60_000));
  expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(
    API_LIMIT + forgiven(apiSeconds * 1000),
  );
  const firstRefused = apiAfter.findIndex(({ status }) => status === 429);
  expect(firstRefused).toBeGreaterThanOrEqual(0);
  const afterRefusal = apiAfter.slice(firstRefused);
  expect(afterRefusal.every(({ status }) => status === 200 || status === 429)).toBe(true);
  expect(afterRefusal.filter(({ status }) => status === 200).length).toBeLessThanOrEqual(
    forgiven(afterRefusal[afterRefusal.length - 1].at - afterRefusal[0].at) + 1,
  );
  expect(serverLog).not.toMatch(/Rate limiting is off/);
  // The viewer still signs in from their own address.
  expect(await signInAttempt("viewer@acme.test", "demo-password", clientAddress("the viewer"))).toBe("status 302");
});
