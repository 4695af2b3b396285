// Run by `npm run build` before `next build`: a configuration that cannot work fails the build (on Vercel, the
// deployment), so that it never takes traffic. The same check stops `next start` (instrumentation.ts).
import "./env";
import { refuseUnworkableConfiguration } from "@/lib/db/startup";

refuseUnworkableConfiguration();
