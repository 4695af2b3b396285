// `npm run tenant:create -- --name "Harper & Co" --owner-email <email> --owner-name <full name> [--timezone <IANA>]`:
// onboards a firm (built-in roles, default job statuses, its Owner) and prints the Owner's first password.
import { parseArgs } from "node:util";
import { printedBaseUrl } from "@/lib/base-url";
import { createTenant } from "@/lib/tenants/create";
import { runCommand } from "./command";

await runCommand(async (client) => {
  const { values } = parseArgs({
    options: {
      name: { type: "string", default: "" },
      "owner-email": { type: "string", default: "" },
      "owner-name": { type: "string", default: "" },
      timezone: { type: "string" },
    },
  });
  const { tenant, owner, password } = await createTenant(client, {
    name: values.name,
    ownerEmail: values["owner-email"],
    ownerName: values["owner-name"],
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
