import { z } from "zod";

/**
 * Schemas that become named components of the OpenAPI document. A registry of our own rather than zod's global
 * one, so that a fresh copy of the modules (a new server instance in tests) brings a fresh registry along.
 */
export const apiSchemas = z.registry<{ id: string }>();

/** An example, as the document shows it next to the schema; the tests check each against its schema. */
const withExample = <T extends z.ZodType>(schema: T, example: unknown): T =>
  example === undefined ? schema : (schema.meta({ examples: [example] }) as T);

/** Registers a response schema, with an example answer, as the component `id` and returns it. */
export function component<T extends z.ZodType>(schema: T, id: string, example?: unknown): T {
  const documented = withExample(schema, example);
  apiSchemas.add(documented, { id });
  return documented;
}

/** Request bodies, named components of their own (`ClientCreate`): generated clients then name their types so. */
export const requestBodies = z.registry<{ id: string }>();

export function requestBody<T extends z.ZodType>(schema: T, id: string, example: unknown): T {
  const documented = withExample(schema, example);
  requestBodies.add(documented, { id });
  return documented;
}

/**
 * What a query or path value means on the wire, where it arrives as text: `page` is documented as an integer with
 * its bounds, `include_archived` as a boolean, so that generated clients take numbers and booleans.
 */
export const wireSchemas = new WeakMap<object, z.ZodType>();

export function documentedAs<T extends z.ZodType>(schema: T, wire: z.ZodType): T {
  wireSchemas.set(schema, wire);
  return schema;
}
