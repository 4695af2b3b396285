// `npm run user:archive -- --tenant <firm id or name> --email <email>`: the person can no longer sign in, their
// sessions end and their API tokens are revoked. Their records (time logs, assignments) stay.
import { parseArgs } from "node:util";
import { archiveUser } from "@/lib/team/mutations";
import { runCommand } from "./command";

await runCommand(async (client) => {
  const { values } = parseArgs({
    options: { tenant: { type: "string", default: "" }, email: { type: "string", default: "" } },
  });
  const { tenant, user } = await archiveUser(client, { tenant: values.tenant, email: values.email });
  console.log(`Archived ${user.firstname} ${user.lastname} <${user.email}> in ${tenant.name}.`);
});
