// Browser tests against the built app (`npm run test:e2e` builds first), in Debian's Chromium. The server starts on
// a fresh embedded database, which migrates on its first start and seeds the demo data because DEMO_SEED=on asks it to.
// E2E_PORT moves the server off the default port when another run uses it.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT || 3250);
const baseURL = `http://localhost:${PORT}`;
/** Where e2e/getting-back-in.spec.ts's local SMTP server listens (E2E_PORT + 1 is the sign-in burst's server). */
const SMTP_PORT = PORT + 2;
const dataDir = ".data/e2e";

// The MCP client accepts only an https client_id URL, so e2e/mcp-oauth.spec.ts serves its client metadata document over
// https on loopback, with this self-signed certificate, which the server trusts (NODE_EXTRA_CA_CERTS). Made once per
// run: the workers load this file again, with E2E_TLS_DIR already set.
if (!process.env.E2E_TLS_DIR) {
  const tlsDir = fileURLToPath(new URL("../.data/e2e-tls", import.meta.url));
  mkdirSync(tlsDir, { recursive: true });
  // biome-ignore format: openssl's arguments in pairs
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    "-keyout", `${tlsDir}/key.pem`, "-out", `${tlsDir}/cert.pem`,
  ], { stdio: "ignore" });
  process.env.E2E_TLS_DIR = tlsDir;
}

export default defineConfig({
  testDir: ".",
  fullyParallel: false,
  workers: 1, // one small shared server; the tests use separate demo users, but the machine is small
  retries: 0,
  // CI runs these beside the README check's build of a fresh clone: a step may wait on a busy CPU.
  timeout: 90_000,
  forbidOnly: !!process.env.CI,
  reporter: "list",
  use: {
    baseURL,
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "retain-on-failure",
  },
  webServer: {
    command: `rm -rf ${dataDir} ${dataDir}-demo-token && npx next start --port ${PORT}`,
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    url: `${baseURL}/signin`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    env: {
      PGLITE_DATA_DIR: dataDir,
      // Not the developer's own .data/demo-token.
      DEMO_TOKEN_FILE: `${dataDir}-demo-token`,
      DATABASE_URL: "", // always the embedded database, even where DATABASE_URL is set for the Vitest tests
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      NEXTAUTH_URL: baseURL,
      DEMO_SEED: "on",
      // The tests play visitors from many addresses through X-Forwarded-For, as a trusted proxy would report them.
      TRUST_PROXY: "true",
      NEXT_TELEMETRY_DISABLED: "1",
      // The server's warnings and errors in the test output, not its line per request (lib/core/log.ts).
      LOG_LEVEL: "warn",
      // "Forgot password?" mails through the SMTP server e2e/getting-back-in.spec.ts starts (links start with
      // NEXTAUTH_URL).
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
      // The webhooks spec's receiver listens on loopback, over http.
      WEBHOOKS_ALLOW_PRIVATE: "true",
      // The OAuth spec's app serves its client metadata document on loopback, over http.
      OAUTH_METADATA_ALLOW_PRIVATE: "true",
      // The MCP OAuth spec's document is served over https with the certificate made above.
      NODE_EXTRA_CA_CERTS: `${process.env.E2E_TLS_DIR}/cert.pem`,
      // As `npm start` sets it: URLs up to 128 KB reach the app, which answers the over-long ones with a JSON 414.
      NODE_OPTIONS: "--max-http-header-size=131072",
    },
  },
});
