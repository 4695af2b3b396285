// The frame of the operator's commands: the app's env files, which database, errors as plain lines naming the
// command-line option at fault (no stack trace), exit code 1 on failure, and the database closed at the end.
import "./env";
import { closeDatabase, prisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { OperatorInputError } from "@/lib/team/errors";
import { announceDatabase } from "./env";

const option = (field: string) => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export async function runCommand(work: (client: PrismaClient) => Promise<void>) {
  process.env.DEMO_SEED = "off"; // an operator's command never fills a database with demo data
  try {
    announceDatabase();
    await work(await prisma());
  } catch (error) {
    if (error instanceof OperatorInputError) {
      for (const [field, messages] of Object.entries(error.fields))
        console.error(`${option(field)}: ${messages.join(" ")}`);
    } else {
      console.error(error instanceof Error ? error.message : String(error));
    }
    process.exitCode = 1;
  } finally {
    await closeDatabase();
  }
}
