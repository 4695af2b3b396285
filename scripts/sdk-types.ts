// `npm run sdk:types`: the TypeScript types a client generated from the OpenAPI document gets (openapi-typescript),
// written to .data/sdk/api.ts for e2e/sdk/integration.ts. Part of `npm run typecheck`, so that a document change that
// breaks code written against generated clients fails the typecheck; e2e/typed-client.spec.ts generates them again
// from the document the built app serves.
import { mkdirSync, writeFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";
import { openApiDocument } from "@/lib/openapi/document";
import { readCommandLine } from "./usage";

readCommandLine(
  `Usage: npm run sdk:types

Writes the TypeScript types openapi-typescript generates from the OpenAPI document to .data/sdk/api.ts.`,
  {},
);

const file = ".data/sdk/api.ts";
mkdirSync(".data/sdk", { recursive: true });
writeFileSync(file, astToString(await openapiTS(JSON.parse(JSON.stringify(openApiDocument())))));
console.log(`Wrote ${file}`);
