// Run by `npm run build` before `next build`: a configuration that cannot work fails the build (on Vercel, the
// deployment), so that it never takes traffic; and a build never replaces the pages under a running server (a second
// `npm run demo` did, and its chunks answered 500). The same configuration check stops `next start` (instrumentation.ts).
import "./env";
import { refuseToBuildUnderRunningServer, refuseUnworkableConfiguration } from "@/lib/db/startup";

refuseUnworkableConfiguration();
refuseToBuildUnderRunningServer();
