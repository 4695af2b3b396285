// The one JSON style of the API's answers (docs/architecture.md, "The JSON style"): compact, as JSON.stringify
// writes it, and each object's keys in the order of its schema's properties in the OpenAPI document, extra keys (a
// client's custom fields, a validation error's fields) after the documented ones.
import { openApiDocument } from "@/lib/openapi/document";
import { documentedOperation } from "./contract";

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
}

type Doc = ReturnType<typeof openApiDocument>;
let doc: Doc | undefined;
const document = () => {
  doc ??= openApiDocument();
  return doc;
};

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split("/").pop()!;
  return resolve((document().components.schemas as Record<string, Schema>)[name]);
}

/** The schema of an operation's answer of this status, or undefined when the document has none. */
export function answerSchema(method: string, pathname: string, status: number): Schema | undefined {
  const route = documentedOperation(method, pathname);
  if (!route) return undefined;
  const paths = document().paths as Record<string, Record<string, { responses: Record<string, Schema & object> }>>;
  let response = paths[route.template][method.toLowerCase()].responses[status] as {
    $ref?: string;
    content?: { "application/json": { schema: Schema } };
  };
  if (response?.$ref)
    response = (document().components.responses as Record<string, typeof response>)[response.$ref.split("/").pop()!];
  return response?.content?.["application/json"].schema;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Whether a branch of a oneOf/anyOf describes this value's shape, at any depth (the branch to check its order by). */
function fits(schema: Schema, value: unknown): boolean {
  const s = resolve(schema);
  if (s.oneOf || s.anyOf) return (s.oneOf ?? s.anyOf)!.some((branch) => fits(branch, value));
  const types = [s.type ?? []].flat();
  if (value === null) return types.includes("null");
  if (Array.isArray(value)) return types.includes("array") && value.every((item) => !s.items || fits(s.items, item));
  if (!isObject(value)) return !types.includes("object") && !types.includes("array");
  if (!types.includes("object") && !s.properties) return false;
  const properties = s.properties ?? {};
  return (
    (s.required ?? []).every((key) => key in value) &&
    Object.entries(value).every(([key, item]) =>
      key in properties ? fits(properties[key], item) : s.additionalProperties !== false,
    )
  );
}

/** Where the keys of `value` stray from the order of `schema`'s properties, at any depth (JSON paths). */
export function keyOrderProblems(value: unknown, schema: Schema, at = "$"): string[] {
  const s = resolve(schema);
  const branches = s.oneOf ?? s.anyOf;
  if (branches) {
    const branch = branches.find((b) => fits(b, value));
    return branch ? keyOrderProblems(value, branch, at) : [`${at}: no schema of the document fits it`];
  }
  if (Array.isArray(value))
    return s.items ? value.flatMap((item, i) => keyOrderProblems(item, s.items!, `${at}[${i}]`)) : [];
  if (!isObject(value)) return [];
  const documented = Object.keys(s.properties ?? {});
  const keys = Object.keys(value);
  const problems: string[] = [];
  const expected = [...documented.filter((key) => key in value), ...keys.filter((key) => !documented.includes(key))];
  if (expected.join() !== keys.join()) problems.push(`${at}: keys ${keys.join(",")}, documented ${expected.join(",")}`);
  for (const key of keys) {
    const inner =
      s.properties?.[key] ?? (typeof s.additionalProperties === "object" ? s.additionalProperties : undefined);
    if (inner) problems.push(...keyOrderProblems(value[key], inner, `${at}.${key}`));
  }
  return problems;
}

/** The body text as JSON.stringify would write its value: no spacing, nothing escaped that it leaves alone. */
export const compact = (text: string) => JSON.stringify(JSON.parse(text));
