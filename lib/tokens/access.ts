// What a token may touch: for each resource of the API, none, read or write (write includes read; write only where
// the API writes). The wrapper (lib/api/route.ts) checks it before the role's permissions, so a token never does more
// than both allow. Nothing server-only here: the token page's form imports it in the browser.
import { z } from "zod";

export const TOKEN_RESOURCES = ["clients", "contacts", "jobs", "users", "time_logs", "webhooks", "audit"] as const;
export type TokenResource = (typeof TOKEN_RESOURCES)[number];
export const ACCESS_LEVELS = ["none", "read", "write"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export type TokenAccess = Record<TokenResource, AccessLevel>;

/** Resources the API has writes for; the others go up to `read`. */
const WRITABLE: ReadonlySet<TokenResource> = new Set(["clients", "contacts", "jobs", "webhooks"]);
export const levelsOf = (resource: TokenResource): readonly AccessLevel[] =>
  WRITABLE.has(resource) ? ACCESS_LEVELS : ["none", "read"];

const everywhere = (level: (resource: TokenResource) => AccessLevel) =>
  Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, level(r)])) as TokenAccess;
/** The old `read_write` scope: write everywhere the role allows. */
export const FULL_ACCESS = everywhere((r) => (WRITABLE.has(r) ? "write" : "read"));
/** The old `read` scope: read everywhere. */
export const READ_ONLY = everywhere(() => "read");
export const NO_ACCESS = everywhere(() => "none");

export const TOKEN_PRESETS = { full: FULL_ACCESS, read: READ_ONLY } as const;
export type TokenPreset = keyof typeof TOKEN_PRESETS;
export const PRESET_LABELS = { full: "Full access", read: "Read-only", custom: "Custom" } as const;

const sameAccess = (a: TokenAccess, b: TokenAccess) => TOKEN_RESOURCES.every((r) => a[r] === b[r]);
export function presetOf(access: TokenAccess): TokenPreset | "custom" {
  if (sameAccess(access, FULL_ACCESS)) return "full";
  return sameAccess(access, READ_ONLY) ? "read" : "custom";
}

/** `time_logs` → "time logs", `audit` → "the audit log". */
export const resourceLabel = (resource: TokenResource) =>
  resource === "audit" ? "the audit log" : resource.replace("_", " ");

/** "Full access", "Read-only", or per level: "Write: jobs · Read: clients, time logs" ("No access" when empty). */
export function accessSummary(access: TokenAccess): string {
  const preset = presetOf(access);
  if (preset !== "custom") return PRESET_LABELS[preset];
  const parts = (["write", "read"] as const).flatMap((level) => {
    const names = TOKEN_RESOURCES.filter((r) => access[r] === level).map(resourceLabel);
    return names.length ? [`${level === "write" ? "Write" : "Read"}: ${names.join(", ")}`] : [];
  });
  return parts.join(" · ") || "No access";
}

const RANK: Record<AccessLevel, number> = { none: 0, read: 1, write: 2 };

/**
 * Whether the token reads the resource: a record of it nested in another (a client's contacts, a job's users) is
 * written whole, or else as its identifier only (decisions.md, "Token access reaches nested data").
 */
export const readsNested = (access: TokenAccess, resource: TokenResource) => access[resource] !== "none";

/** Why the token may not do this (a 403's message), or null when it may. */
export function accessRefusal(access: TokenAccess, resource: TokenResource, needed: "read" | "write"): string | null {
  const held = access[resource];
  if (RANK[held] >= RANK[needed]) return null;
  if (held === "none") return `This token has no access to ${resourceLabel(resource)}.`;
  // The Read-only preset keeps the words it always had.
  return presetOf(access) === "read"
    ? "This token is read-only."
    : `This token can only read ${resourceLabel(resource)}.`;
}

/**
 * Why the token may not subscribe a webhook endpoint to these events (`job.updated` carries a job: it needs read on
 * jobs), or null when it may: a token must not receive by push what it may not read.
 */
export function eventsRefusal(access: TokenAccess, events: readonly string[]): string | null {
  for (const event of events) {
    const resource = `${event.split(".")[0]}s` as TokenResource;
    if (TOKEN_RESOURCES.includes(resource) && accessRefusal(access, resource, "read"))
      return `This token has no access to ${resourceLabel(resource)}, so it cannot subscribe to ${event}.`;
  }
  return null;
}

/** A stored or submitted access: every resource with a level it can have. */
export const tokenAccessSchema = z.strictObject(
  Object.fromEntries(TOKEN_RESOURCES.map((r) => [r, z.enum(levelsOf(r) as [AccessLevel, ...AccessLevel[]])])) as Record<
    TokenResource,
    z.ZodEnum<{ [L in AccessLevel]: L }>
  >,
);

/**
 * `clients:read,time_logs:read` (the CLI's --access): the resources named get their level, the rest none. Throws a
 * message naming what is wrong.
 */
export function parseAccessList(text: string): TokenAccess {
  const access = { ...NO_ACCESS };
  for (const item of text.split(",").map((s) => s.trim())) {
    const [resource, level, ...rest] = item.split(":");
    if (!(TOKEN_RESOURCES as readonly string[]).includes(resource) || rest.length)
      throw new Error(`"${item}" is not resource:level; resources are ${TOKEN_RESOURCES.join(", ")}.`);
    const levels = levelsOf(resource as TokenResource);
    if (!levels.includes(level as AccessLevel))
      throw new Error(`${resource} may be ${levels.join(", ")}, not "${level ?? ""}".`);
    access[resource as TokenResource] = level as AccessLevel;
  }
  return access;
}

/** Per resource, the lower of the two levels: what an app's token may do is its grant's access ∩ the firm's cap. */
export const intersectAccess = (a: TokenAccess, b: TokenAccess): TokenAccess =>
  everywhere((r) => (RANK[a[r]] <= RANK[b[r]] ? a[r] : b[r]));

/** Whether `access` allows nothing that `within` does not. */
export const accessWithin = (access: TokenAccess, within: TokenAccess) =>
  TOKEN_RESOURCES.every((r) => RANK[access[r]] <= RANK[within[r]]);

/**
 * The most a role's permissions let a token do, per resource (the consent page lowers an app's request to it):
 * write where the role may create or update, webhooks only with `webhooks.manage`, the audit log only with
 * `audit.read`. Requests still pass the role's own checks, so a role lowered later narrows a grant at once.
 */
export function roleCeiling(permissions: ReadonlySet<string>): TokenAccess {
  const writes = (r: "clients" | "contacts" | "jobs") =>
    permissions.has(`${r}.create`) || permissions.has(`${r}.update`) ? "write" : "read";
  return {
    clients: writes("clients"),
    contacts: writes("contacts"),
    jobs: writes("jobs"),
    users: "read",
    time_logs: "read",
    webhooks: permissions.has("webhooks.manage") ? "write" : "none",
    audit: permissions.has("audit.read") ? "read" : "none",
  };
}
