// `npm run token:create -- --email <user email> --name <name> [--tenant <tenant id>]
// [--access clients:read,time_logs:read | --scope read|read_write] [--expires-days <days>|none]`: mints a personal
// access token for a user and prints it once. The same library function backs the API tokens page; like the page,
// it defaults to Full access (the old read_write) and no expiry.
import { createApiTokenForEmail } from "@/lib/tokens";
import { accessSummary, parseAccessList, TOKEN_PRESETS, type TokenAccess } from "@/lib/tokens/access";
import { runCommand } from "./command";
import { readCommandLine } from "./usage";

const USAGE = `Usage: npm run token:create -- --email <user email> --name <token name> [--tenant <tenant id>]
  [--access <resource:level,…> | --scope read|read_write] [--expires-days <days>|none]

Mints a personal access token for a person and prints it once (Full access and no expiry unless told).
  --access         per resource, e.g. clients:write,time_logs:read (levels none, read, write)
  --scope          read (Read-only) or read_write (Full access)
  --expires-days   days until it expires, or none (default)
  --tenant         the firm's id, when the email is a person's in several firms`;

const { values } = readCommandLine(USAGE, {
  email: { type: "string" },
  name: { type: "string" },
  tenant: { type: "string" },
  scope: { type: "string" },
  access: { type: "string" },
  "expires-days": { type: "string" },
});

/** The old scopes name the presets. */
const SCOPES: Record<string, TokenAccess> = { read: TOKEN_PRESETS.read, read_write: TOKEN_PRESETS.full };

await runCommand(async (client) => {
  if (!values.email || !values.name) throw new Error(USAGE);
  if (values.scope && values.access) throw new Error(`Give --access or --scope, not both.\n${USAGE}`);
  if (values.scope && !Object.hasOwn(SCOPES, values.scope))
    throw new Error(`--scope must be read or read_write.\n${USAGE}`);
  let access = values.scope ? SCOPES[values.scope] : TOKEN_PRESETS.full;
  if (values.access !== undefined) {
    try {
      access = parseAccessList(values.access);
    } catch (error) {
      throw new Error(`--access: ${(error as Error).message}\n${USAGE}`);
    }
  }
  const days = values["expires-days"] ?? "none";
  if (days !== "none" && !/^[1-9]\d{0,4}$/.test(days))
    throw new Error(`--expires-days must be a whole number of days (1 to 99999) or "none".\n${USAGE}`);
  const tenantId = values.tenant ? Number(values.tenant) : undefined;
  const { token, summary, user } = await createApiTokenForEmail(client, values.email, values.name, tenantId, {
    access,
    expiresInDays: days === "none" ? null : Number(days),
  });
  const expiry = summary.expiresAt ? `expires ${summary.expiresAt.toISOString()}` : "never expires";
  console.log(
    `Token "${values.name}" (${accessSummary(summary.access)}, ${expiry}) for ${user.email} (${user.tenant.name}). It is shown this once; keep it safe:\n${token}`,
  );
});
