// What `vercel build` made of the project, before anything runs: every package the app's server code requires is among
// the traced files of each function that holds that code (./traced-packages.ts; fails while a package reaches the app
// only through a path Vercel's tracer cannot follow), and the functions run on the Node.js version the project's
// settings name (docs/deploy.md, step 4), which Vercel ignores when package.json's engines allow a newer major.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { project } from "./deployment";
import { describeMissing, tracedFunctions, untracedImports } from "./traced-packages";

describe("`vercel build`'s functions", () => {
  it("hold every package the app's compiled server code requires", async () => {
    expect(describeMissing(await untracedImports(project()))).toBe("");
  });

  it("run on the Node.js version of the project's settings", async () => {
    const settings = JSON.parse(await readFile(path.join(project(), ".vercel/project.json"), "utf8")).settings;
    const runtimes = new Set<string>();
    for (const fn of await tracedFunctions(project())) {
      const config = path.join(project(), ".vercel/output/functions", fn.name, ".vc-config.json");
      runtimes.add(JSON.parse(await readFile(config, "utf8")).runtime);
    }
    expect([...runtimes]).toEqual([`nodejs${settings.nodeVersion}`]);
  });
});

describe("the check itself, on a made-up output", () => {
  let fake: string;
  const fn = "api/x.func";
  const output = async (traced: string[]) => {
    const filePathMap = Object.fromEntries(
      [".next/server/chunks/app.js", ...traced].map((file) => [file, file] as const),
    );
    await writeFile(
      path.join(fake, ".vercel/output/functions", fn, ".vc-config.json"),
      JSON.stringify({ filePathMap }),
    );
  };

  beforeAll(async () => {
    fake = await mkdtemp(path.join(tmpdir(), "cjt-traced-"));
    await mkdir(path.join(fake, ".vercel/output/functions", fn), { recursive: true });
    await mkdir(path.join(fake, ".next/server/chunks"), { recursive: true });
    await mkdir(path.join(fake, "node_modules/hasher"), { recursive: true });
    await writeFile(path.join(fake, "node_modules/hasher/package.json"), "{}");
    await writeFile(path.join(fake, "node_modules/hasher/index.js"), "");
    // A worker evaluated from source, and an optional dependency the project does not have.
    await writeFile(
      path.join(fake, ".next/server/chunks/app.js"),
      'new Worker(`const h = require("hasher");`, { eval: true }); try { require("not-installed") } catch {}',
    );
  });
  afterAll(() => rm(fake, { recursive: true, force: true }));

  it("names a package the app requires from a string that the function's files lack", async () => {
    await output([]);
    expect(await untracedImports(fake)).toEqual([
      { fn, pkg: "hasher", from: '.next/server/chunks/app.js: require("hasher")' },
    ]);
  });

  it("is satisfied once the function holds it", async () => {
    await output(["node_modules/hasher/package.json", "node_modules/hasher/index.js"]);
    expect(await untracedImports(fake)).toEqual([]);
  });
});
