import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "lib/generated/**",
      "node_modules/**",
      ".data/**",
      "next-env.d.ts",
      "**/test-results/**",
      "playwright-report/**",
    ],
  },
  {
    // Pages, server actions and route handlers never open the database: route handlers use the tenant-scoped
    // caller.db the API wrapper gives them, pages and actions call their lib module with the session's user.
    files: ["app/**", "components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/db/*", "@/lib/generated/*"],
              message: "Go through lib: caller.db in route handlers, the resource's lib module in pages and actions.",
            },
          ],
        },
      ],
    },
  },
  {
    // Imports point one way: app → lib/openapi, lib/mcp → lib/<resource>/endpoints.ts → lib/api → lib/<resource> →
    // lib/db and lib/core. HTTP stays in lib/api; an endpoint's declaration (lib/api/endpoint.ts) lives beside its
    // resource, above lib/api, and the surfaces made from the declarations (the document, the MCP tools) above those.
    files: ["lib/**"],
    ignores: ["lib/api/**", "lib/*/endpoints.ts", "lib/openapi/**", "lib/mcp/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["@/lib/api/*", "@/app/*"], message: "lib/api is the HTTP layer above the resources." }],
        },
      ],
    },
  },
  {
    files: ["lib/core/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/lib/(?!core/)",
              message: "lib/core holds building blocks that depend on nothing else of the app.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/db/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/lib/(?!db/|core/|generated/)",
              message: "lib/db is the bottom layer: it opens the database and scopes queries, nothing above it.",
            },
          ],
        },
      ],
    },
  },
  { files: ["tests/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
];

export default config;
