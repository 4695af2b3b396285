// `npm run openapi -- <file>`: writes the OpenAPI document (as served at /api/v1/openapi.json) to a file.
import { writeFileSync } from "node:fs";
import { openApiDocument } from "@/lib/openapi/document";
import { readCommandLine } from "./usage";

const { positionals } = readCommandLine(
  `Usage: npm run openapi -- [file]

Writes the OpenAPI document, as served at /api/v1/openapi.json, to the file (default openapi.json).`,
  {},
  { positionals: 1 },
);
const file = positionals[0] ?? "openapi.json";
writeFileSync(file, JSON.stringify(openApiDocument(), null, 2) + "\n");
console.log(`Wrote ${file}`);
