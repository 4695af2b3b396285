// One declaration per endpoint, kept in its resource's folder (lib/<resource>/endpoints.ts): where it is, what it needs,
// its handler, and how it is described. Every surface is made from it: the route file under app/api/v1 serves it
// through the wrapper (lib/api/route.ts), the OpenAPI document describes it (lib/openapi/document.ts), and the MCP
// server offers it as a tool when it names one (lib/mcp). So none of them can drift from the others, or skip a check.
import type { z } from "zod";
import { uuidString } from "@/lib/core/references";
import type { Endpoint } from "./route";

export interface EndpointDocumentation {
  /** The operationId: a verb and a noun (`listClients`), which generated clients name their functions after. */
  id: string;
  /** The MCP tool that offers this endpoint to assistants (`list_clients`, lib/mcp); without one, MCP has none. */
  tool?: string;
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters and their schemas (the record loader judges them: `load`). */
  params?: Record<string, z.ZodType>;
  /** The answer, without a schema when it has no body (204); its example defaults to the schema's `.meta({ examples })`. */
  response: { status: 200 | 201 | 202 | 204; schema?: z.ZodType; description: string; example?: unknown };
  /**
   * Error statuses this operation can answer with, beyond the ones every operation can (401, 406, 414, 429, 503) and
   * those every operation with path parameters can (404, 405).
   */
  errors: (400 | 403 | 404 | 413 | 415 | 422)[];
}

export interface EndpointDeclaration<Q = undefined, B = undefined, R = undefined>
  extends Endpoint<Q, B, R>,
    EndpointDocumentation {}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpointDeclaration = EndpointDeclaration<any, any, any>;

/** Declares an endpoint; a function only so that TypeScript infers the handler's input from the schemas. */
export const endpoint = <Q = undefined, B = undefined, R = undefined>(declaration: EndpointDeclaration<Q, B, R>) =>
  declaration;

/** The path parameter of a record named by its uuid. */
export const uuidParam = uuidString().describe("The record's uuid (either case)");
/** What an operation that reads a JSON body can answer besides the rest. */
export const BODY_ERRORS = [400, 413, 415, 422] as const;
