/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that it loads from its own package folder at run time. The MCP SDK stays
  // a package of its own too: it carries a bundled Ajv whose code generator names Ajv's runtime files in code strings
  // (for standalone output, never loaded here), which the Vercel lane's check of the app's own compiled code would
  // take for requires; as a package, Vercel's tracer follows what it really loads.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "swagger-ui-dist",
    "@modelcontextprotocol/server",
  ],
  poweredByHeader: false,
  // Compression belongs to what stands in front (Vercel's edge; nginx or Caddy on one server: README "Deploy"): gzip
  // in this process costs the one event loop's CPU (a 1,000-row sync page, 0.5-1.6 MB: 10-30 ms more per page).
  compress: false,
  // The build type-checks what it ships. The tests, e2e and scripts are `npm run typecheck`'s: e2e/sdk imports SDK
  // types generated into the git-ignored .data, which a fresh clone lacks (tsconfig's exclude does not stop an import).
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // A trailing slash under /api/v1 is a JSON 404, not a redirect (proxy.ts, which redirects pages itself).
  skipTrailingSlashRedirect: true,
  // Headers every answer carries (decisions.md, "Security"); pages get their CSP and framing headers from proxy.ts.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      },
      // API answers belong to one caller: no browser or shared cache may keep them. The OpenAPI document is public.
      ...["/api/v1", "/api/v1/:path((?!openapi\\.json$).*)"].map((source) => ({
        source,
        headers: [{ key: "Cache-Control", value: "no-store" }],
      })),
    ];
  },
};

export default nextConfig;
