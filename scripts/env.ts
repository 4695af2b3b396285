// Imported first by every command-line script: loads .env, .env.local and .env.production(.local) exactly as
// `next start` does, so that a script and the server it prepares use the same database.
import nextEnv from "@next/env";
import { describeDatabase } from "@/lib/db/describe";

nextEnv.loadEnvConfig(process.cwd());

/** Says which database the script works on (on stderr, so that stdout stays the script's own output). */
export function announceDatabase(url = process.env.DATABASE_URL) {
  console.error(`Database: ${describeDatabase(url)}`);
}
