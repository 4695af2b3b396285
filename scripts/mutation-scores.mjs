// After `stryker run`: each mutated module's score from the JSON report, against its least score in
// stryker.config.mjs (MUTATED). Fails when any falls below, or when a module has no mutants in the report (the report
// is stale, or a module moved). Score: mutants a test noticed (killed, or timed out) of those that ran.
import { readFileSync } from "node:fs";
import { MUTATED } from "../stryker.config.mjs";

const report = JSON.parse(readFileSync("reports/mutation/mutation.json", "utf8"));
const NOTICED = new Set(["Killed", "Timeout"]);
const UNNOTICED = new Set(["Survived", "NoCoverage"]);
let failed = false;
for (const { file, least } of MUTATED) {
  const mutants = report.files[file.replace(/:.*$/, "")]?.mutants ?? [];
  const noticed = mutants.filter((m) => NOTICED.has(m.status)).length;
  const unnoticed = mutants.filter((m) => UNNOTICED.has(m.status));
  const total = noticed + unnoticed.length;
  const score = total ? (100 * noticed) / total : 0;
  const ok = total > 0 && score >= least;
  failed ||= !ok;
  console.log(`${ok ? "ok  " : "FAIL"} ${file}: ${score.toFixed(1)}% (${noticed} of ${total}; least ${least}%)`);
  for (const m of unnoticed)
    console.log(
      `     ${m.status} line ${m.location.start.line}: ${m.mutatorName} ${JSON.stringify(m.replacement ?? "")}`,
    );
}
if (failed) {
  console.error(
    "A mutated module fell below its least score: add the test that notices, or name the survivor as equivalent in docs/testing.md.",
  );
  process.exit(1);
}
