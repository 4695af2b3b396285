// Part of `npm run db:generate`: writes lib/generated/migrations.json, the names of prisma/migrations, so that the
// build itself knows which migrations it expects (GET /api/health compares them with the database). Bundled, it
// also works where the folder is not deployed: a Vercel function carries only the files its code imports.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";

const names = readdirSync("prisma/migrations", { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
mkdirSync("lib/generated", { recursive: true });
writeFileSync("lib/generated/migrations.json", `${JSON.stringify(names, null, 2)}\n`);
