// `npm run user:archive -- --tenant <firm id or name> --email <email>`: the person can no longer sign in, their
// sessions end and their API tokens are revoked. Their records (time logs, assignments) stay.
import { archiveUser } from "@/lib/team/mutations";
import { runCommand } from "./command";
import { readCommandLine } from "./usage";

const { values } = readCommandLine(
  `Usage: npm run user:archive -- --tenant <firm id or name> --email <email>

Archives a person: they can no longer sign in, their sessions end and their API tokens are revoked. Their records
(time logs, assignments) stay. The team page's Unarchive brings them back.`,
  { tenant: { type: "string" }, email: { type: "string" } },
);

await runCommand(async (client) => {
  const { tenant, user } = await archiveUser(client, { tenant: values.tenant ?? "", email: values.email ?? "" });
  console.log(`Archived ${user.firstname} ${user.lastname} <${user.email}> in ${tenant.name}.`);
});
