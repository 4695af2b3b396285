// `npm run user:create -- --tenant <firm id or name> --email <email> --name <full name> [--role Standard]
// [--client-access all|client_groups|assigned_clients] [--client-groups "North,Payroll"] [--timezone <IANA>]`:
// adds a person to a firm and prints their first password.
import { printedBaseUrl } from "@/lib/base-url";
import { createUser } from "@/lib/team/mutations";
import { runCommand } from "./command";
import { readCommandLine } from "./usage";

const { values } = readCommandLine(
  `Usage: npm run user:create -- --tenant <firm id or name> --email <email> --name <full name> [--role Standard]
  [--client-access all|client_groups|assigned_clients] [--client-groups "North,Payroll"] [--timezone <IANA>]

Adds a person to a firm and prints their first password (shown once).
  --role            one of the firm's roles but Owner (default Standard)
  --client-access   which clients they see (default all); client_groups needs --client-groups
  --client-groups   comma-separated group names, made when the firm does not have them yet
  --timezone        their time zone, such as Europe/London (default the firm's)`,
  {
    tenant: { type: "string" },
    email: { type: "string" },
    name: { type: "string" },
    role: { type: "string" },
    "client-access": { type: "string" },
    "client-groups": { type: "string" },
    timezone: { type: "string" },
  },
);

await runCommand(async (client) => {
  const { tenant, user, role, password, createdGroups } = await createUser(client, {
    tenant: values.tenant ?? "",
    email: values.email ?? "",
    name: values.name ?? "",
    role: values.role,
    clientAccess: values["client-access"] as never, // checked by createUser
    clientGroups: values["client-groups"]?.split(",").filter((name) => name.trim()),
    timezone: values.timezone,
  });
  const lines = [`Added ${user.firstname} ${user.lastname} <${user.email}> to ${tenant.name} as ${role}.`];
  if (user.clientAccess !== "all") lines.push(`  sees: ${user.clientAccess}`);
  if (createdGroups.length) lines.push(`  new client groups: ${createdGroups.join(", ")}`);
  lines.push(
    `They sign in at ${printedBaseUrl()}/signin with this first password (shown only now; it works until changed: change it at /settings/profile at once):`,
    `  ${password}`,
  );
  console.log(lines.join("\n"));
});
