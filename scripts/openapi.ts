// `npm run openapi -- <file>`: writes the OpenAPI document (as served at /api/v1/openapi.json) to a file.
import { writeFileSync } from "node:fs";
import { openApiDocument } from "@/lib/openapi/document";

const file = process.argv[2] ?? "openapi.json";
writeFileSync(file, JSON.stringify(openApiDocument(), null, 2) + "\n");
console.log(`Wrote ${file}`);
