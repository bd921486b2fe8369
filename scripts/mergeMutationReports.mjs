// Merges Stryker incremental reports of runs over disjoint sets of source files (e.g. one per module,
// run side by side) into one incremental file, so the next full-scope run (`npm run mutate`) reuses
// their results where Stryker's own incremental rules allow and re-tests the rest: changed code,
// changed tests, and survivors that tests outside the module's run now cover.
// Usage: node scripts/mergeMutationReports.mjs out.json run1.json run2.json ...
import fs from "node:fs";
import console from "node:console";
import process from "node:process";

const [out, ...inputs] = process.argv.slice(2);
if (!out || inputs.length === 0) {
  console.error("usage: node scripts/mergeMutationReports.mjs <out.json> <incremental.json>...");
  process.exit(2);
}

const merged = { files: {}, testFiles: {} };
inputs.forEach((file, run) => {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  // Test ids are per run ("0", "1", …): make them unique across runs, and give a test that an
  // earlier run already listed (same file, same source, same name) that run's id.
  const sameTest = new Map();
  for (const [name, entry] of Object.entries(report.testFiles ?? {})) {
    const known = merged.testFiles[name];
    if (known?.source !== entry.source) continue;
    for (const t of entry.tests) {
      const earlier = known.tests.find((k) => k.name === t.name);
      if (earlier) sameTest.set(t.id, earlier.id);
    }
  }
  const id = (testId) => sameTest.get(testId) ?? `r${run}-${testId}`;
  for (const [name, entry] of Object.entries(report.files)) {
    if (merged.files[name]) throw new Error(`${name} is in two runs; merge only runs over disjoint files`);
    merged.files[name] = {
      ...entry,
      mutants: entry.mutants.map((m) => ({
        ...m,
        ...(m.coveredBy ? { coveredBy: m.coveredBy.map(id) } : {}),
        ...(m.killedBy ? { killedBy: m.killedBy.map(id) } : {}),
      })),
    };
  }
  for (const [name, entry] of Object.entries(report.testFiles ?? {})) {
    const tests = entry.tests.map((t) => ({ ...t, id: id(t.id) }));
    const known = merged.testFiles[name];
    if (!known) merged.testFiles[name] = { ...entry, tests };
    else if (known.source === entry.source)
      known.tests.push(...tests.filter((t) => !known.tests.some((k) => k.id === t.id)));
    // A test file seen at two versions: keep the first; Stryker re-tests what its changes touch.
  }
  for (const key of ["schemaVersion", "thresholds", "projectRoot", "config", "framework"]) merged[key] ??= report[key];
});
fs.writeFileSync(out, JSON.stringify(merged));
const mutants = Object.values(merged.files).reduce((n, f) => n + f.mutants.length, 0);
console.log(
  `${Object.keys(merged.files).length} files, ${mutants} mutants, ${Object.keys(merged.testFiles).length} test files -> ${out}`,
);
