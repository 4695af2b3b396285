// `npm run db:seed`: migrates, then fills an empty database with the demo data and prints how to use it.
import "./env";
import { closeDatabase, prisma } from "@/lib/db/client";
import { announceDemo, DEMO_TENANTS, demoSummary, seedDemo } from "@/lib/demo/seed";
import { announceDatabase } from "./env";
import { migrate } from "./migrate";
import { readCommandLine } from "./usage";

readCommandLine(
  `Usage: npm run db:seed

Migrates the database, then fills an empty one with the demo data (two firms, their demo-password accounts, a demo
token in .data/demo-token) and prints how to use it. A database with other data is left as it is.`,
  {},
);

process.env.DEMO_SEED = "off"; // this script seeds itself, and says so

try {
  announceDatabase();
  await migrate();
  const client = await prisma();
  if ((await client.tenant.count()) === 0) {
    announceDemo(await seedDemo(client));
  } else if (await client.tenant.findFirst({ where: { name: DEMO_TENANTS[0].name } })) {
    console.log("The demo data is already in place.");
    announceDemo(demoSummary());
  } else {
    console.log("The database already has data that is not the demo's; nothing was seeded.");
  }
} catch (error) {
  // A database in use or damaged is said in its one sentence (lib/db/pglite.ts), not with a stack trace.
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await closeDatabase();
}
