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
    // Route handlers reach the database only through the tenant-scoped caller the API wrapper gives them.
    files: ["app/api/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/db/client", "@/lib/generated/*"],
              message: "Use caller.db from lib/api: it is scoped to the caller's tenant.",
            },
          ],
        },
      ],
    },
  },
  { files: ["tests/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
];

export default config;
