import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect } from "vitest";
import { OperatorInputError } from "@/lib/team/errors";

const repo = path.resolve(import.meta.dirname, "../..");

/**
 * Runs a script of scripts/ as a person at a terminal would (through tsx), in `folder`, with only what a shell would
 * have: none of the test run's own settings (NODE_ENV=test makes Next skip .env.local), plus `extraEnv`.
 */
export async function runScript(folder: string, extraEnv: Record<string, string>, script: string, ...args: string[]) {
  const env = { ...process.env };
  const unset = [
    "NODE_ENV",
    "DATABASE_URL",
    "DIRECT_DATABASE_URL",
    "PGLITE_DATA_DIR",
    "PORT",
    "APP_URL",
    "NEXTAUTH_URL",
  ];
  for (const name of unset) delete env[name];
  const tsx = path.join(repo, "node_modules", "tsx", "dist", "cli.mjs");
  const cli = [tsx, "--tsconfig", path.join(repo, "tsconfig.json"), path.join(repo, "scripts", script), ...args];
  return promisify(execFile)(process.execPath, cli, { cwd: folder, env: { ...env, ...extraEnv } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** The fields an operator's command refused, with their messages; fails the test when it was not refused so. */
export async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(OperatorInputError);
  return (error as OperatorInputError).fields;
}
