// Gives each test file its own database, copied from the template that global setup built.
import { cp, rm } from "node:fs/promises";
import { afterAll, beforeAll, inject } from "vitest";
import { closeDatabase } from "@/lib/db/client";
import { adminQuery, databaseUrlFor } from "./postgres";

const template = inject("templateDatabase");
const suffix = `${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
// The app's URL (through the pooler, if any) and the direct one for CREATE and DROP DATABASE, kept across the
// test file's own changes of DATABASE_URL.
if (process.env.DATABASE_URL && !process.env.CJT_BASE_DATABASE_URL) {
  process.env.CJT_BASE_POOLED_URL = process.env.DATABASE_URL;
  process.env.CJT_BASE_DATABASE_URL = process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL;
}
const adminUrl = process.env.CJT_BASE_DATABASE_URL;
const pooledUrl = process.env.CJT_BASE_POOLED_URL;
const copy = adminUrl ? `${template}_${suffix}` : `${template}-${suffix}`;

beforeAll(async () => {
  if (adminUrl) {
    // CREATE DATABASE from a template fails while another copy of it is being made: retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await adminQuery(adminUrl, `CREATE DATABASE "${copy}" TEMPLATE "${template}"`);
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    process.env.DATABASE_URL = databaseUrlFor(pooledUrl!, copy);
    process.env.DIRECT_DATABASE_URL = databaseUrlFor(adminUrl, copy);
  } else {
    await cp(template, copy, { recursive: true });
    process.env.PGLITE_DATA_DIR = copy;
  }
});

afterAll(async () => {
  await closeDatabase();
  if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${copy}" WITH (FORCE)`);
  else await rm(copy, { recursive: true, force: true });
});
