// Run by `npm start` before `next start`: a configuration that cannot work (no NEXTAUTH_SECRET, a bad setting, an
// embedded database another process holds) is refused here, with its sentence, before Next prints "✓ Ready"; the
// server's own start (instrumentation.ts) checks the same, after it has.
process.env.NODE_ENV ??= "production"; // as `next start` runs, and so which env files it reads
await import("./env");
const { refuseUnworkableStart } = await import("@/lib/db/startup");
refuseUnworkableStart();
