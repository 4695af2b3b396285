import { z } from "zod";

/**
 * Schemas that become named components of the OpenAPI document. A registry of our own rather than zod's global
 * one, so that a fresh copy of the modules (a new server instance in tests) brings a fresh registry along.
 */
export const apiSchemas = z.registry<{ id: string }>();

/** Registers a response schema as the component `id` and returns it. */
export function component<T extends z.ZodType>(schema: T, id: string): T {
  apiSchemas.add(schema, { id });
  return schema;
}
