// Preloaded (--require) into every thread of a function instance that tests/vercel/runtime.ts starts, worker threads
// included (a password worker evaluated from source is one): records each bare module specifier that failed to
// resolve, and from where, one JSON line each, in the file CJT_VERCEL_LOAD_LOG names; `lookup` when it was only
// require.resolve asking (Next asks for styled-jsx in a try, and does without). tests/vercel/traced-packages.ts reads
// them: a package the app tried to load, that the project has but the function's traced files lack, fails CI.
// CommonJS: Node runs --require preloads in worker threads too, --import ones not in evaluated workers.
/* eslint-disable @typescript-eslint/no-require-imports */
const { appendFileSync } = require("node:fs");
const Module = require("node:module");
const { threadId } = require("node:worker_threads");

const log = process.env.CJT_VERCEL_LOAD_LOG;

function record(specifier, from) {
  if (/^(\.|\/|file:|node:|data:)/.test(specifier) || Module.isBuiltin(specifier)) return;
  const lookup = /at (require\.|Function\.)?resolve \(node:internal\/modules\/helpers/.test(new Error().stack);
  const entry = { specifier, from: from ?? null, lookup, cwd: process.cwd(), thread: threadId };
  appendFileSync(log, `${JSON.stringify(entry)}\n`);
}

const notFound = (error) => error?.code === "MODULE_NOT_FOUND" || error?.code === "ERR_MODULE_NOT_FOUND";

if (log && typeof Module.registerHooks === "function") {
  // One hook for require() and import() alike (Node 22.15 and later).
  Module.registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (notFound(error)) record(specifier, context.parentURL);
        throw error;
      }
    },
  });
} else if (log) {
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    try {
      return resolveFilename.call(this, request, parent, ...rest);
    } catch (error) {
      if (notFound(error)) record(request, parent?.filename);
      throw error;
    }
  };
}
