// `npm run token:create -- --email <user email> --name <name> [--tenant <tenant id>] [--scope read|read_write]
// [--expires-days <days>|none]`: mints a personal access token for a user and prints it once. The same library
// function backs the API tokens page; like the page, it defaults to read_write and 90 days.
import { parseArgs } from "node:util";
import type { TokenScope } from "@/lib/generated/prisma/enums";
import { createApiTokenForEmail, DEFAULT_TOKEN_EXPIRY_DAYS, TOKEN_SCOPES } from "@/lib/tokens";
import { runCommand } from "./command";

const USAGE =
  "Usage: npm run token:create -- --email <user email> --name <token name> [--tenant <tenant id>]" +
  " [--scope read|read_write] [--expires-days <days>|none]";

await runCommand(async (client) => {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      name: { type: "string" },
      tenant: { type: "string" },
      scope: { type: "string", default: "read_write" },
      "expires-days": { type: "string", default: String(DEFAULT_TOKEN_EXPIRY_DAYS) },
    },
  });
  if (!values.email || !values.name) throw new Error(USAGE);
  if (!(TOKEN_SCOPES as readonly string[]).includes(values.scope))
    throw new Error(`--scope must be read or read_write.\n${USAGE}`);
  const days = values["expires-days"];
  if (days !== "none" && !/^[1-9]\d{0,4}$/.test(days))
    throw new Error(`--expires-days must be a whole number of days (1 to 99999) or "none".\n${USAGE}`);
  const tenantId = values.tenant ? Number(values.tenant) : undefined;
  const { token, summary, user } = await createApiTokenForEmail(client, values.email, values.name, tenantId, {
    scope: values.scope as TokenScope,
    expiresInDays: days === "none" ? null : Number(days),
  });
  const expiry = summary.expiresAt ? `expires ${summary.expiresAt.toISOString()}` : "never expires";
  console.log(
    `Token "${values.name}" (${summary.scope}, ${expiry}) for ${user.email} (${user.tenant.name}). It is shown this once; keep it safe:\n${token}`,
  );
});
