// zod set up once: messages a person understands, the building blocks of input schemas, and parsing that turns
// failures into 422s.
import { z } from "zod";
import { validationFailed, zodFieldErrors } from "./errors";
import { documentedAs } from "./openapi-registry";

const received = (input: unknown) => (input === null ? "null" : Array.isArray(input) ? "an array" : typeof input);

z.config({
  customError: (issue) => {
    switch (issue.code) {
      case "invalid_type":
        if (issue.input === undefined) return "This field is required.";
        // JSON numbers beyond double range (1e999) parse as Infinity.
        if (typeof issue.input === "number" && issue.expected === "number")
          return "Must be a finite number: this one is too large.";
        return `Must be ${article(issue.expected)}, not ${received(issue.input)}.`;
      case "too_big":
        if (issue.origin === "string") return `Must be at most ${issue.maximum} characters.`;
        if (issue.origin === "array") return `Must have at most ${issue.maximum} items.`;
        return `Must be at most ${issue.maximum}.`;
      case "too_small":
        if (issue.origin === "string")
          return issue.minimum === 1 ? "Must not be empty." : `Must be at least ${issue.minimum} characters.`;
        if (issue.origin === "array") return `Must have at least ${issue.minimum} items.`;
        return `Must be at least ${issue.minimum}.`;
      case "invalid_value":
        return `Must be one of: ${issue.values.map(String).join(", ")}.`;
      case "invalid_format":
        return issue.format === "email"
          ? "Must be a valid email address."
          : issue.format === "url"
            ? "Must be a valid URL."
            : `Must be a valid ${issue.format}.`;
      case "not_multiple_of":
        return `Must be a multiple of ${issue.divisor}.`;
      default:
        return undefined;
    }
  },
});

function article(type: string) {
  if (type === "int") return "a whole number";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Parses input with a schema; a failure is a 422 whose `errors` name the offending fields. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(zodFieldErrors(result.error));
  return result.data;
}

/** A query value that must be a list (`tags[]=1&tags[]=2`, or `tags=1`): one value becomes a list of one. */
export const queryList = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === "string" ? [v] : v), z.array(item).max(1000));

/** How a whole number is written in a query: digits only (`1000`, not `1e3` or `1000.0`). */
const QUERY_INT = /^-?[0-9]{1,15}$/;

/**
 * A whole number given as query text, e.g. `country_id=826`, then checked against `bounds`: documented as them, with
 * the pattern saying that only digits are taken.
 */
export const queryInt = (bounds: z.ZodNumber) =>
  documentedAs(
    z.string().regex(QUERY_INT, "Must be a whole number written in digits.").transform(Number).pipe(bounds),
    bounds.meta({ pattern: QUERY_INT.source }),
  );

/** A yes or no given as query text: exactly `true` or `false` (decisions.md, Wire format), as documented. */
export const queryBoolean = () =>
  documentedAs(
    z.enum(["true", "false"], { error: "Must be true or false." }).transform((v) => v === "true"),
    z.boolean(),
  );

/** Text the database can store: no NUL character and no unpaired surrogate (neither is valid in PostgreSQL's UTF-8). */
export const isStorableText = (s: string) => !s.includes("\u0000") && s.isWellFormed();

/** Text input: trimmed, bounded, and storable. */
export const text = (max: number) =>
  z.string().trim().max(max).refine(isStorableText, "Must be valid Unicode text without NUL characters.");

/** The keys that were sent: a partial update writes exactly these (null included, to clear a field). */
export function withoutUndefined<T extends object>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as T;
}

/** The one sort direction of every list. */
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type Direction = (typeof SORT_DIRECTIONS)[number];
