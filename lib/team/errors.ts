// Errors of the operator's commands (tenant:create, user:create, user:archive) and of the team page: what is wrong,
// per input field, in words for the person at the terminal or the page. The library raises them; the scripts print
// them and the page's actions answer them.
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

/** The signed-in person may not manage the firm's people (their role lacks `users.manage`, read afresh). */
export class TeamPermissionError extends Error {
  constructor() {
    super("Your role does not allow managing the firm's people.");
    this.name = "TeamPermissionError";
  }
}

/** A team page request that cannot be done as asked: a message per form field (or `form`), for the person. */
export class TeamInputError extends Error {
  constructor(readonly fields: Partial<Record<string, string>>) {
    super(Object.values(fields).join(" "));
    this.name = "TeamInputError";
  }
}
