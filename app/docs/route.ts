// The API reference: Swagger UI, served from our own origin (no CDN), reading /api/v1/openapi.json. Its scripts
// carry the request's CSP nonce (proxy.ts), like Next's own.
const page = (nonce: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference · Client, Job and Time Tracking</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <nav aria-label="Back to the app" style="font: 14px/1.4 system-ui, sans-serif; padding: 10px 20px; border-bottom: 1px solid #e2e8f0">
    <a href="/">Client, Job and Time Tracking</a> · <a href="/settings/api-tokens">API tokens</a>
  </nav>
  <div id="swagger-ui"></div>
  <script nonce="${nonce}" src="/docs/swagger-ui-bundle.js"></script>
  <script nonce="${nonce}" src="/docs/init.js"></script>
</body>
</html>`;

export function GET(request: Request) {
  // A nonce is base64: nothing in it can break out of the attribute.
  const nonce = /^[A-Za-z0-9+/=]+$/.exec(request.headers.get("x-nonce") ?? "")?.[0] ?? "";
  return new Response(page(nonce), { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
