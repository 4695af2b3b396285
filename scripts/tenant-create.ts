// `npm run tenant:create -- --name "Harper & Co" --owner-email <email> --owner-name <full name> [--timezone <IANA>]`:
// onboards a firm (built-in roles, default job statuses, its Owner) and prints the Owner's first password.
import { printedBaseUrl } from "@/lib/base-url";
import { createTenant } from "@/lib/tenants/create";
import { runCommand } from "./command";
import { readCommandLine } from "./usage";

const { values } = readCommandLine(
  `Usage: npm run tenant:create -- --name <firm name> --owner-email <email> --owner-name <full name> [--timezone <IANA>]

Onboards a firm (built-in roles, default job statuses, its Owner) and prints the Owner's first password.
  --timezone   the firm's time zone, such as Europe/London (default UTC)`,
  {
    name: { type: "string" },
    "owner-email": { type: "string" },
    "owner-name": { type: "string" },
    timezone: { type: "string" },
  },
);

await runCommand(async (client) => {
  const { tenant, owner, password } = await createTenant(client, {
    name: values.name ?? "",
    ownerEmail: values["owner-email"] ?? "",
    ownerName: values["owner-name"] ?? "",
    timezone: values.timezone,
  });
  console.log(
    [
      `Created the firm "${tenant.name}" (id ${tenant.id}, time zone ${tenant.timezone})`,
      `  roles: ${tenant.roles.map((r) => r.name).join(", ")}`,
      `  job statuses: ${tenant.jobStatuses.map((s) => s.slug).join(", ")}`,
      `Its Owner, ${owner.firstname} ${owner.lastname} <${owner.email}>, signs in at ${printedBaseUrl()}/signin with`,
      `this first password (shown only now; it works until changed: change it at /settings/profile at once):`,
      `  ${password}`,
    ].join("\n"),
  );
});
