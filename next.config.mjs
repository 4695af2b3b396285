/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WebAssembly and data files that it loads from its own package folder at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "swagger-ui-dist"],
  poweredByHeader: false,
};

export default nextConfig;
