// Builds the template database once per run: migrated and filled with the demo data. Per-file databases are
// copies of it (tests/support/per-file-database.ts), so every test file starts from the same known state.
import { rm } from "node:fs/promises";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/lib/db/migrations";
import { openPGlite } from "@/lib/db/pglite";
import { seedDemo } from "@/lib/demo/seed";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { adminQuery, databaseUrlFor } from "./postgres";

export const PGLITE_TEMPLATE = path.resolve(".data/test-template");

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  // Creating databases and migrating them is session work: over DIRECT_DATABASE_URL when a pooler is in front.
  const url = process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL;
  if (url) {
    const template = `${new URL(url).pathname.slice(1)}_template`;
    await adminQuery(url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await adminQuery(url, `CREATE DATABASE "${template}"`);
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrlFor(url, template) }) });
    await adminQuery(databaseUrlFor(url, template), async (session) => {
      await applyMigrations({
        query: (sql, params) => session.query(sql, params) as never,
        exec: (sql) => session.query(sql),
      });
    });
    await seedDemo(client);
    await client.$disconnect();
    project.provide("templateDatabase", template);
    return async () => adminQuery(url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  }
  await rm(PGLITE_TEMPLATE, { recursive: true, force: true });
  const pglite = openPGlite(PGLITE_TEMPLATE);
  await applyMigrations(pglite);
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  await seedDemo(client);
  await client.$disconnect();
  await pglite.close();
  project.provide("templateDatabase", PGLITE_TEMPLATE);
  return async () => rm(PGLITE_TEMPLATE, { recursive: true, force: true });
}
