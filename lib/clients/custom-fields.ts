// Custom fields: defined per tenant, each shown as a top-level key of the client object (null when unset), and
// set through `custom_fields: {"<name>": value}` on create and update, validated by the field's type.

import { z } from "zod";
import { calendarDate } from "@/lib/core/dates";
import type { FieldErrors } from "@/lib/core/errors";
import { documentedAs } from "@/lib/core/openapi-registry";
import { text } from "@/lib/core/validation";
import type { TenantDb } from "@/lib/db/tenant";
import type { CustomField } from "@/lib/generated/prisma/client";

const MAX_CUSTOM_FIELDS = 100;

/** Names JavaScript objects treat specially: zod drops `__proto__` from a parsed record without a word. */
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/**
 * `custom_fields` of a create or update: at most 100 names (counted before any key is looked at, so that a huge
 * object costs one check; decisions.md, Security), none of them an object internal, each at most 100 characters.
 */
const counted = z
  .record(z.string(), z.unknown())
  .refine((fields) => Object.keys(fields).length <= MAX_CUSTOM_FIELDS, `Must have at most ${MAX_CUSTOM_FIELDS} keys.`)
  .pipe(z.record(z.string().max(100), z.unknown()))
  .meta({ maxProperties: MAX_CUSTOM_FIELDS });

// Checked on the object as sent, before zod's record (which leaves __proto__ out) sees it; no transform, so that the
// request bodies keep their examples in the document.
export const customFieldsInput = documentedAs(
  z
    .unknown()
    .superRefine((fields, ctx) => {
      if (fields === null || typeof fields !== "object") return;
      for (const name of Object.keys(fields))
        if (RESERVED_NAMES.has(name))
          ctx.addIssue({ code: "custom", path: [name], message: `"${name}" cannot be a custom field name.` });
    })
    .pipe(counted)
    .describe(`Values of the firm's custom fields, by name (at most ${MAX_CUSTOM_FIELDS})`),
  counted,
);

export type FieldDefinition = Pick<CustomField, "id" | "name" | "type" | "options">;

export function tenantCustomFields(db: TenantDb): Promise<FieldDefinition[]> {
  return db.customField.findMany({
    select: { id: true, name: true, type: true, options: true },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
}

function valueSchema(field: FieldDefinition): z.ZodType {
  switch (field.type) {
    case "text":
      return text(10_000);
    case "number":
      return z.number().finite();
    case "date":
      return calendarDate();
    case "boolean":
      return z.boolean();
    case "select":
      return z.enum(field.options as [string, ...string[]]);
  }
}

/** Checks the sent values against the tenant's fields: each name must exist and each value fit its type. */
export function parseCustomValues(
  sent: Record<string, unknown>,
  fields: FieldDefinition[],
): { values: { field: FieldDefinition; value: unknown }[]; errors: FieldErrors } {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const values: { field: FieldDefinition; value: unknown }[] = [];
  const errors: FieldErrors = {};
  for (const [name, value] of Object.entries(sent)) {
    const field = byName.get(name);
    const key = `custom_fields.${name}`;
    if (!field) {
      errors[key] = [`There is no custom field named "${name}".`];
      continue;
    }
    if (value === null) {
      values.push({ field, value: null });
      continue;
    }
    const parsed = valueSchema(field).safeParse(value);
    if (parsed.success) values.push({ field, value: parsed.data });
    else errors[key] = parsed.error.issues.map((i) => i.message);
  }
  return { values, errors };
}

/** Every custom field of the tenant as a key, with the client's value or null. */
export function customFieldKeys(fields: FieldDefinition[], stored: { fieldId: number; value: unknown }[]) {
  const byField = new Map(stored.map((v) => [v.fieldId, v.value]));
  return Object.fromEntries(fields.map((f) => [f.name, byField.get(f.id) ?? null]));
}
