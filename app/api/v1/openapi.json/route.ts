// The OpenAPI document of the API: public, no token needed. Its server is this API's absolute URL, on the same public
// origin as the links in answers, so that a client generated from it works outside a browser too.
import { publicOrigin } from "@/lib/api/public-url";
import { openApiDocument } from "@/lib/openapi/document";

const documents = new Map<string, ReturnType<typeof openApiDocument>>();

export function GET(request: Request) {
  const server = new URL("/api/v1", publicOrigin(request)).href;
  let document = documents.get(server);
  if (!document) {
    // One per origin the app answers on; a Host header is the caller's to choose, so the map is kept small.
    if (documents.size >= 10) documents.clear();
    document = openApiDocument(server);
    documents.set(server, document);
  }
  return Response.json(document, { headers: { "Cache-Control": "public, max-age=300" } });
}
