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

/** Operator input's parse: the data, or what is wrong with it per field. */
export function checkOperatorInput<S extends z.ZodType>(schema: S, input: unknown) {
  const result = schema.safeParse(input);
  const fields: Record<string, string[]> = {};
  if (!result.success)
    for (const issue of result.error.issues) (fields[issue.path.join(".") || "input"] ??= []).push(issue.message);
  return { data: result.data, fields };
}

/** Parses operator input; a failure names each offending field. */
export function parseOperatorInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const { data, fields } = checkOperatorInput(schema, input);
  if (Object.keys(fields).length) throw new OperatorInputError(fields);
  return data as z.output<S>;
}

/** The result of a check that may refuse operator input, or null with its complaint added to `fields`. */
export async function collectRefusal<T>(fields: Record<string, string[]>, check: Promise<T>): Promise<T | null> {
  try {
    return await check;
  } catch (error) {
    if (!(error instanceof OperatorInputError)) throw error;
    for (const [field, messages] of Object.entries(error.fields)) (fields[field] ??= []).push(...messages);
    return null;
  }
}

/** A team page request that cannot be done as asked: a message per form field (or `form`), for the person. */
export class TeamInputError extends Error {
  constructor(readonly fields: Partial<Record<string, string>>) {
    super(Object.values(fields).join(" "));
    this.name = "TeamInputError";
  }
}

/**
 * The signed-in person may not manage the firm's people (their role lacks `users.manage`, read afresh): a form only
 * someone else's page shows, so forged. Refused like any request that cannot be done, with a message the page shows.
 */
export class TeamPermissionError extends TeamInputError {
  constructor() {
    super({ form: "Your role does not allow managing the firm's people." });
    this.name = "TeamPermissionError";
  }
}
