// `npm run user:reset-password -- --email <email> [--tenant <firm id or name>]`: a one-time link for a person to set
// a new password, the Owner included (the team page cannot make one for the Owner). Prints the link once.
import { printedBaseUrl } from "@/lib/base-url";
import { RESET_PATH } from "@/lib/paths";
import { createResetLinkForOperator, RESET_LINK_HOURS } from "@/lib/team/password-reset";
import { runCommand } from "./command";
import { readCommandLine } from "./usage";

const { values } = readCommandLine(
  `Usage: npm run user:reset-password -- --email <email> [--tenant <firm id or name>]

Makes a one-time link for an active person (the Owner too) to set a new password, and prints it once. It works for
${RESET_LINK_HOURS} hours; using it ends every session of theirs. A newer link replaces it. Recorded in the firm's
audit log. --tenant is needed only when the email is a person's in several firms.`,
  { email: { type: "string" }, tenant: { type: "string" } },
);

await runCommand(async (client) => {
  const link = await createResetLinkForOperator(client, { email: values.email ?? "", tenant: values.tenant });
  console.log(
    [
      `A link for ${link.name} <${link.email}> (${link.firm}) to set a new password, until ${link.expiresAt.toISOString()}`,
      "(shown only now; send it to them a way you know reaches them):",
      `  ${printedBaseUrl()}${RESET_PATH}/${link.token}`,
    ].join("\n"),
  );
});
