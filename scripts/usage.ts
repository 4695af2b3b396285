// The command line of every script a person runs: `--help` (or `-h`) prints its usage and exits 0; an unknown option,
// an option missing its value or a stray argument is named, a line each ("--nickname: Unknown option."), above the
// usage, and exits 1 before anything is done.
import { type ParseArgsConfig, parseArgs } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

export function readCommandLine<const O extends Options>(
  usage: string,
  options: O,
  { positionals = 0 }: { positionals?: number } = {},
) {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  // Not strict, so that every mistake is named at once rather than the first alone.
  const parsed = parseArgs({ args, options, strict: false, tokens: true, allowPositionals: true });
  const wrong: string[] = [];
  for (const token of parsed.tokens)
    if (token.kind === "option" && !Object.hasOwn(options, token.name)) wrong.push(`--${token.name}: Unknown option.`);
    else if (token.kind === "option" && options[token.name].type === "string" && token.value === undefined)
      wrong.push(`--${token.name}: Needs a value.`);
  const extra = parsed.positionals.slice(positionals);
  if (extra.length) wrong.push(`Unexpected: ${extra.join(" ")}`);
  if (wrong.length) {
    console.error(`${wrong.join("\n")}\n\n${usage}`);
    process.exit(1);
  }
  // Checked above: every option is known and every string option has its string.
  return {
    values: parsed.values as { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string },
    positionals: parsed.positionals,
  };
}
