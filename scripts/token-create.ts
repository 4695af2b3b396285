// `npm run token:create -- --email <user email> --name <name> [--tenant <tenant id>]`: mints a personal access
// token for a user and prints it once. The same library function backs the API tokens page.
import { parseArgs } from "node:util";
import { createApiTokenForEmail } from "@/lib/tokens";
import { runCommand } from "./command";

await runCommand(async (client) => {
  const { values } = parseArgs({
    options: { email: { type: "string" }, name: { type: "string" }, tenant: { type: "string" } },
  });
  if (!values.email || !values.name)
    throw new Error("Usage: npm run token:create -- --email <user email> --name <token name> [--tenant <tenant id>]");
  const tenantId = values.tenant ? Number(values.tenant) : undefined;
  const { token, user } = await createApiTokenForEmail(client, values.email, values.name, tenantId);
  console.log(
    `Token "${values.name}" for ${user.email} (${user.tenant.name}). It is shown this once; keep it safe:\n${token}`,
  );
});
