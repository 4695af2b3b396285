// The error model of the API: every error is `{"message": ...}`, a 422 adds `errors: {field: [messages]}`.
import { z } from "zod";

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toResponse(): Response {
    const body = this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
    return Response.json(body, { status: this.status, headers: this.headers });
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const forbidden = (message = "You do not have access to this record.") => new ApiError(403, message);
export const notFound = (what = "Resource") => new ApiError(404, `${what} not found.`);

/** An error body lists at most this many fields, however many a body got wrong (decisions.md, Security). */
const MAX_ERROR_FIELDS = 50;

export function validationFailed(all: FieldErrors): ApiError {
  const fields = Object.keys(all);
  const errors =
    fields.length > MAX_ERROR_FIELDS ? Object.fromEntries(Object.entries(all).slice(0, MAX_ERROR_FIELDS)) : all;
  const first = `${fields[0]}: ${errors[fields[0]][0]}`;
  const more =
    fields.length > 1 ? ` (and ${fields.length - 1} more field${fields.length > 2 ? "s" : ""} with errors)` : "";
  return new ApiError(422, `The given data was invalid. ${first}${more}`, errors);
}

/** A 422 for one field, for rules that zod cannot see (uniqueness, references to other records). */
export const invalidField = (field: string, message: string) => validationFailed({ [field]: [message] });

/** An error keyed `field.i` for each id at index i of a sent list that is not among the `known` ones. */
export function unknownIdErrors(
  field: string,
  sent: readonly number[] | null | undefined,
  known: readonly number[],
  message: string,
): FieldErrors {
  const found = new Set(known);
  return Object.fromEntries((sent ?? []).flatMap((id, i) => (found.has(id) ? [] : [[`${field}.${i}`, [message]]])));
}

/** zod issues to the `errors` map: one key per offending field, as a dot path (`contact.email`, `tags.0`). */
export function zodFieldErrors(error: z.ZodError, root = "body"): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join(".") : root;
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}
