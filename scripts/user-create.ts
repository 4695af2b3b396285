// `npm run user:create -- --tenant <firm id or name> --email <email> --name <full name> [--role Standard]
// [--client-access all|client_groups|assigned_clients] [--client-groups "North,Payroll"] [--timezone <IANA>]`:
// adds a person to a firm and prints their first password.
import { parseArgs } from "node:util";
import { printedBaseUrl } from "@/lib/base-url";
import { OperatorInputError } from "@/lib/team/errors";
import { createUser } from "@/lib/team/mutations";
import { runCommand } from "./command";

const options = {
  tenant: { type: "string", default: "" },
  email: { type: "string", default: "" },
  name: { type: "string", default: "" },
  role: { type: "string" },
  "client-access": { type: "string" },
  "client-groups": { type: "string" },
  timezone: { type: "string" },
} as const;

await runCommand(async (client) => {
  // Not strict, so that every unknown option and every option missing its value is named at once, a line each.
  const { values, tokens } = parseArgs({ options, strict: false, tokens: true });
  const wrong: Record<string, string[]> = {};
  for (const token of tokens)
    if (token.kind === "option" && !(token.name in options)) wrong[token.name] = ["Unknown option."];
    else if (token.kind === "option" && token.value === undefined) wrong[token.name] = ["Needs a value."];
  if (Object.keys(wrong).length) throw new OperatorInputError(wrong);
  const text = (name: keyof typeof options) => values[name] as string | undefined; // strings: checked above
  const { tenant, user, role, password, createdGroups } = await createUser(client, {
    tenant: text("tenant") ?? "",
    email: text("email") ?? "",
    name: text("name") ?? "",
    role: text("role"),
    clientAccess: text("client-access") as never, // checked by createUser
    clientGroups: text("client-groups")
      ?.split(",")
      .filter((name) => name.trim()),
    timezone: text("timezone"),
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
