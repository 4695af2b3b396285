// The OpenAPI document of the API: public, no token needed.
import { openApiDocument } from "@/lib/openapi/document";

let document: ReturnType<typeof openApiDocument> | undefined;

export function GET() {
  document ??= openApiDocument();
  return Response.json(document, { headers: { "Cache-Control": "public, max-age=300" } });
}
