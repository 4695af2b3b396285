// Run by `npm start` before `next start`: a configuration that cannot work (no NEXTAUTH_SECRET, a bad setting, an
// embedded database another process holds) is refused here, with its sentence, before Next prints "✓ Ready"; the
// server's own start (instrumentation.ts) checks the same, after it has.
import "./env";
import { refuseUnworkableStart } from "@/lib/db/startup";

// As `next start` runs: production (the env files read are production's already, NODE_ENV being unset).
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
refuseUnworkableStart();
