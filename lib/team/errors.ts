// Errors of the operator's commands (tenant:create, user:create, user:archive): what is wrong, per input field,
// in words for the person at the terminal. The library raises them; the scripts print them.
import type { z } from "zod";

export class OperatorInputError extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super(
      Object.entries(fields)
        .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
        .join("\n"),
    );
    this.name = "OperatorInputError";
  }
}

/** Parses operator input; a failure names each offending field. */
export function parseOperatorInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) (fields[issue.path.join(".") || "input"] ??= []).push(issue.message);
  throw new OperatorInputError(fields);
}
