// Swagger UI's own files, from the swagger-ui-dist package, plus the few lines that start it.
import { readFile } from "node:fs/promises";
import path from "node:path";
// Only the path helper: the package's main module would load the whole browser bundle into the server.
import getAbsoluteFSPath from "swagger-ui-dist/absolute-path.js";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

// A file read needs no more; and a function setting of its own keeps Swagger UI's files (2 MB) out of the function
// Vercel groups the API's routes into.
export const maxDuration = 10;

const INIT = `window.ui = SwaggerUIBundle({ url: "/api/v1/openapi.json", dom_id: "#swagger-ui", deepLinking: true, persistAuthorization: false });`;

export async function GET(_request: Request, { params }: { params: Promise<{ asset: string }> }) {
  const { asset } = await params;
  const headers = { "Cache-Control": "public, max-age=86400" };
  if (asset === "init.js")
    return new Response(INIT, { headers: { ...headers, "Content-Type": ASSETS["swagger-ui-bundle.js"] } });
  const type = ASSETS[asset];
  if (!type) return new Response("Not found", { status: 404 });
  const body = await readFile(/*turbopackIgnore: true*/ path.join(getAbsoluteFSPath(), asset));
  return new Response(body, { headers: { ...headers, "Content-Type": type } });
}
