// Whether each Vercel function holds the packages the app loads at run time. A function gets only the files its
// `.vc-config.json`'s filePathMap lists (what Vercel's tracer followed); `next start`, with the whole node_modules
// beside it, hides a package the tracer missed (issue 51: bcryptjs, required from a worker's source string). Two checks:
// - static: every module name in a `require("…")` or `import("…")` of the app's compiled server code (.next/server,
//   strings included: an evaluated worker's source is one) that the project resolves from that file's place must
//   resolve among the function's files as Node resolves it. Packages' own files are left to the run-time check: the
//   tracer follows their requires, and their texts name many modules they never load (examples in comments,
//   bundled copies, optional dependencies);
// - at run time: every package an instance failed to load (./load-recorder.cjs; not a require.resolve that only asked)
//   that the project resolves from the importing file's place is missing from that function.
// A name the project does not have either (an optional dependency probed in a try) is not the tracer's to follow.
import { existsSync } from "node:fs";
import { readdir, readFile, realpath } from "node:fs/promises";
import { isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface Missing {
  /** The function's folder under .vercel/output/functions. */
  fn: string;
  /** The package it lacks. */
  pkg: string;
  /** Where the app loads it from (a path of the project), and how the check found it. */
  from: string;
}

interface TracedFunction {
  name: string;
  /** Paths inside the function → paths in the project. */
  files: Map<string, string>;
  /** Every package folder among them ("node_modules/pg", ".next/node_modules/pg-5877…", nested ones too). */
  packages: Set<string>;
}

const SPECIFIER = /\b(?:require|import)\s*\(\s*\\?(['"`])([^'"`\\\s]+)\\?\1\s*\)/g;

/** The functions of a build (symlinked ones are one), with their traced files. */
export async function tracedFunctions(project: string): Promise<TracedFunction[]> {
  const root = path.join(project, ".vercel/output/functions");
  const seen = new Map<string, TracedFunction>();
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (!entry.name.endsWith(".func")) {
        if (entry.isDirectory()) await walk(full);
        continue;
      }
      const real = await realpath(full);
      if (seen.has(real)) continue;
      const config = JSON.parse(await readFile(path.join(real, ".vc-config.json"), "utf8"));
      const files = new Map<string, string>(Object.entries(config.filePathMap ?? {}));
      const packages = new Set<string>();
      for (const file of files.keys()) {
        for (const found of file.matchAll(/node_modules\/(@[^/]+\/)?[^/]+/g)) {
          packages.add(file.slice(0, (found.index ?? 0) + found[0].length));
        }
      }
      seen.set(real, { name: path.relative(root, real), files, packages });
    }
  };
  await walk(root);
  return [...seen.values()];
}

/** The name of the package a bare specifier loads ("@scope/name/sub" → "@scope/name"), or null for any other. */
export function packageOf(specifier: string): string | null {
  if (/^(\.|\/|[a-z]+:)/i.test(specifier) || isBuiltin(specifier)) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Whether Node, resolving `pkg` from the function's file `from`, finds it among the function's files. */
function functionHas(fn: TracedFunction, from: string, pkg: string): boolean {
  for (let dir = path.posix.dirname(from); ; dir = path.posix.dirname(dir)) {
    if (fn.packages.has(path.posix.join(dir === "." ? "" : dir, "node_modules", pkg))) return true;
    if (dir === "." || dir === "/") return false;
  }
}

/** Whether the project (the whole checkout, as `next start` has it) resolves `pkg` from the folder `dir`. */
function projectHas(dir: string, pkg: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, "node_modules", pkg, "package.json"))) return true;
    if (at === path.dirname(at)) return false;
  }
}

/** The static check: packages the app's compiled server code requires that its function cannot resolve. */
export async function untracedImports(project: string): Promise<Missing[]> {
  const sources = new Map<string, Promise<string>>();
  const missing = new Map<string, Missing>();
  for (const fn of await tracedFunctions(project)) {
    for (const [inFunction, inProject] of fn.files) {
      if (!/^\.next\/server\/.*\.[cm]?js$/.test(inFunction)) continue;
      const source = path.resolve(project, inProject);
      if (!sources.has(source))
        sources.set(
          source,
          readFile(source, "utf8").catch(() => ""),
        );
      for (const match of (await sources.get(source)!).matchAll(SPECIFIER)) {
        const pkg = packageOf(match[2]);
        if (!pkg || functionHas(fn, inFunction, pkg) || !projectHas(path.dirname(source), pkg)) continue;
        missing.set(`${fn.name} ${pkg}`, { fn: fn.name, pkg, from: `${inProject}: ${match[0]}` });
      }
    }
  }
  return [...missing.values()];
}

interface LoadFailure {
  specifier: string;
  /** The importing module's path or URL; null for evaluated code. */
  from: string | null;
  /** Only require.resolve asked: a question the code may do without (Next asks for styled-jsx in a try). */
  lookup: boolean;
  /** The instance's folder, `<runtime>/functions/<fn>`. */
  cwd: string;
}

/**
 * The run-time check: packages that instances failed to load (records of ./load-recorder.cjs, one JSON line each)
 * and that the project resolves from the loading file's place. An instance's folder is `<runtime>/functions/<fn>`.
 */
export async function unloadablePackages(project: string, loadLog: string): Promise<Missing[]> {
  if (!existsSync(loadLog)) return [];
  const functions = new Map((await tracedFunctions(project)).map((fn) => [fn.name, fn]));
  const missing = new Map<string, Missing>();
  for (const line of (await readFile(loadLog, "utf8")).split("\n").filter(Boolean)) {
    const { specifier, from, lookup, cwd } = JSON.parse(line) as LoadFailure;
    const pkg = lookup ? null : packageOf(specifier);
    const name = /\/functions\/(.+?\.func)(\/|$)/.exec(cwd)?.[1];
    const fn = name ? functions.get(name) : undefined;
    if (!pkg || !fn) continue;
    // The importing file's place in the project: from the filePathMap, or the project's root for evaluated code.
    const importer = from?.startsWith("file:") ? fileURLToPath(from) : from;
    const inFunction = importer?.includes(`/functions/${name}/`) ? importer.split(`/functions/${name}/`)[1] : null;
    const inProject = inFunction ? fn.files.get(inFunction) : undefined;
    const dir = inProject ? path.dirname(path.resolve(project, inProject)) : project;
    if (projectHas(dir, pkg)) {
      missing.set(`${fn.name} ${pkg}`, {
        fn: fn.name,
        pkg,
        from: `${inProject ?? inFunction ?? importer ?? "evaluated code"}, at run time`,
      });
    }
  }
  return [...missing.values()];
}

export const describeMissing = (missing: Missing[]) =>
  missing.map(({ fn, pkg, from }) => `${fn} lacks ${pkg}, which the app loads from ${from}`).join("\n");
