// Validates API answers against the OpenAPI document: a field the document does not describe, a missing
// required one, or a status it does not list fails the test that made the request.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "@/lib/openapi/document";

const BASE = "https://contract.test/openapi";
type Doc = ReturnType<typeof openApiDocument>;
type ResponseSpec = { $ref?: string; content?: { "application/json": { schema: object } } };

let compiled: { doc: Doc; ajv: Ajv2020; routes: { method: string; pattern: RegExp; template: string }[] } | undefined;

function load() {
  if (compiled) return compiled;
  const doc = openApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: BASE, components: doc.components });
  const routes = Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.keys(methods).map((method) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^/api/v1${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    })),
  );
  // Literal paths before templated ones: /clients/search is not /clients/{uuid}.
  routes.sort((a, b) => Number(a.template.includes("{")) - Number(b.template.includes("{")));
  compiled = { doc, ajv, routes };
  return compiled;
}

/** The documented operation for a request, if any (probe routes of the tests are not documented). */
export function documentedOperation(method: string, pathname: string) {
  return load().routes.find((r) => r.method === method && r.pattern.test(pathname));
}

export function assertMatchesContract(method: string, pathname: string, status: number, body: unknown) {
  const { doc, ajv } = load();
  const route = documentedOperation(method, pathname);
  if (!route) return;
  const operation = (doc.paths as Record<string, Record<string, { responses: Record<string, ResponseSpec> }>>)[
    route.template
  ][method.toLowerCase()];
  let response = operation.responses[status];
  if (!response)
    throw new Error(`${method} ${route.template} answered ${status}, which the OpenAPI document does not list`);
  if (response.$ref)
    response = (doc.components.responses as Record<string, ResponseSpec>)[response.$ref.split("/").pop()!];
  if (!response.content) {
    if (body !== null) throw new Error(`${method} ${route.template} ${status}: the document says no body, got one`);
    return;
  }
  const schema = response.content["application/json"].schema as { $ref?: string };
  // An inline schema's $refs name the document's components, which ajv knows under BASE.
  const validate = schema.$ref
    ? ajv.getSchema(`${BASE}${schema.$ref}`)!
    : ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`)));
  if (!validate(body)) {
    const problems = ajv.errorsText(validate.errors, { separator: "\n  " });
    throw new Error(
      `${method} ${route.template} ${status}: the body does not match the OpenAPI document:\n  ${problems}`,
    );
  }
}
