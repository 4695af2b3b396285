// The deployment the Vercel lane built (.ci/vercel): its folder (CJT_VERCEL_PROJECT), its environment
// (.vercel/.env.production.local), its first firm's Owner (what tenant:create printed, CJT_VERCEL_FIRST_FIRM), and
// its output served by ./runtime.ts at the deployment's own address (NEXTAUTH_URL).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { createApiTokenForEmail } from "@/lib/tokens";
import { INSTANCE_HEADER, type LocalVercel, type RuntimeOptions, startLocalVercel } from "./runtime";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: these tests run in the Vercel lane (.ci/vercel), after its build`);
  return value;
}

export const project = () => required("CJT_VERCEL_PROJECT");

/** The deployment's environment variables, as the build and its functions get them. */
export function deploymentEnv(): Record<string, string> {
  const file = path.join(project(), ".vercel/.env.production.local");
  return parseEnv(readFileSync(file, "utf8")) as Record<string, string>;
}

/** The first firm's Owner, signing in with the first password tenant:create printed (its last line). */
export function firstOwner(): { email: string; password: string } {
  const printed = readFileSync(required("CJT_VERCEL_FIRST_FIRM"), "utf8").trim().split("\n");
  const email = /<([^>]+)>/.exec(printed.find((line) => line.startsWith("Its Owner")) ?? "")?.[1];
  const password = printed.at(-1)?.trim();
  if (!email || !password) throw new Error(`tenant:create printed no Owner and password:\n${printed.join("\n")}`);
  return { email, password };
}

/** The output served as Vercel runs it, at the address the deployment was given. */
export function serveDeployment(options: Partial<RuntimeOptions> = {}): Promise<LocalVercel> {
  const port = Number(new URL(deploymentEnv().NEXTAUTH_URL).port);
  return startLocalVercel({ project: project(), port, ...options });
}

/** A token minted as `npm run token:create` does, on the deployment's database (over the direct URL). */
export async function mintToken(email: string, name: string): Promise<string> {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: deploymentEnv().DIRECT_DATABASE_URL }) });
  try {
    return (await createApiTokenForEmail(client, email, name)).token;
  } finally {
    await client.$disconnect();
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface SendOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The instance to serve it (an id from runtime.instances(), or "new"). */
  instance?: string;
}

/** A request to the deployment; a JSON answer parsed into `body`. */
export async function send(
  runtime: LocalVercel,
  method: string,
  pathname: string,
  { token, body, headers = {}, instance }: SendOptions = {},
): Promise<Answer> {
  const res = await fetch(`${runtime.url}${pathname}`, {
    method,
    headers: {
      Accept: "application/json",
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(instance ? { [INSTANCE_HEADER]: instance } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = res.headers.get("content-type")?.includes("json") && text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, body: json, text };
}
