// Prisma CLI configuration (Prisma 7): `prisma generate` only. Migrations are SQL files in prisma/migrations,
// written by `npm run db:migration:new` (prisma/diff.config.ts) and applied by scripts/migrate.ts.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
