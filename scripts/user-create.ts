// `npm run user:create -- --tenant <firm id or name> --email <email> --name <full name> [--role Standard]
// [--client-access all|client_groups|assigned_clients] [--client-groups "North,Payroll"] [--timezone <IANA>]`:
// adds a person to a firm and prints their one-time password.
import { parseArgs } from "node:util";
import { printedBaseUrl } from "@/lib/base-url";
import { createUser } from "@/lib/team/mutations";
import { runCommand } from "./command";

await runCommand(async (client) => {
  const { values } = parseArgs({
    options: {
      tenant: { type: "string", default: "" },
      email: { type: "string", default: "" },
      name: { type: "string", default: "" },
      role: { type: "string" },
      "client-access": { type: "string" },
      "client-groups": { type: "string" },
      timezone: { type: "string" },
    },
  });
  const { tenant, user, role, password, createdGroups } = await createUser(client, {
    tenant: values.tenant,
    email: values.email,
    name: values.name,
    role: values.role,
    clientAccess: values["client-access"] as never, // checked by createUser
    clientGroups: values["client-groups"]?.split(",").filter((name) => name.trim()),
    timezone: values.timezone,
  });
  const lines = [`Added ${user.firstname} ${user.lastname} <${user.email}> to ${tenant.name} as ${role}.`];
  if (user.clientAccess !== "all") lines.push(`  sees: ${user.clientAccess}`);
  if (createdGroups.length) lines.push(`  new client groups: ${createdGroups.join(", ")}`);
  lines.push(
    `They sign in at ${printedBaseUrl()}/signin with this one-time password (shown only now; change it at /settings/profile):`,
    `  ${password}`,
  );
  console.log(lines.join("\n"));
});
