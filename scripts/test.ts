// npm test: the whole suite in its two tiers (jest.config.js): the pure project, then the
// end-to-end project, each in parallel workers. Arguments go to both Jest runs (a path pattern
// selects in either tier). With --json --outputFile=F (as .ci/run passes), each run writes its
// own report and F gets their sum, so the counts .ci/run reads cover both tiers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

const args = process.argv.slice(2);
let outputFile: string | undefined;
const passThrough: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i].startsWith("--outputFile=")) outputFile = args[i].slice("--outputFile=".length);
  else if (args[i] === "--outputFile") outputFile = args[++i];
  else passThrough.push(args[i]);
}

const jest = require.resolve("jest/bin/jest");
// End-to-end files run side by side too: each has its own server on its own port, its own
// database (a fresh SQLite file or MariaDB database), Redis prefix and temporary folders. Two more
// workers than cores (they wait on databases, child processes, timers and the network's time
// limits), at most 4 (each may start processes and a browser); on 2 cores 4 workers ran the SQLite
// e2e tier in 3 min 6 s where 3 took 3 min 17 s. E2E_WORKERS=n chooses, E2E_WORKERS=1 runs them in band.
const e2eWorkers = Number(process.env.E2E_WORKERS) || Math.min(4, os.availableParallelism() + 2);
const tiers = [
  // Every core: Jest's default leaves one free, which is one worker on a 2-core machine.
  { project: "pure", extra: ["--maxWorkers=100%"] },
  { project: "e2e", extra: e2eWorkers === 1 ? ["--runInBand"] : [`--maxWorkers=${e2eWorkers}`] },
];
let failed = false;
// Jest's JSON report: only its counters and file results are read here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON report of many shapes
const reports: Record<string, any>[] = [];
for (const { project, extra } of tiers) {
  const file = outputFile ? `${outputFile}.${project}` : undefined;
  const run = spawnSync(
    process.execPath,
    [
      jest,
      // --selectProjects takes every word after it: a flag must follow before any path pattern.
      "--selectProjects",
      project,
      ...extra,
      // A pattern may match files of one tier only: the other then runs nothing, which is fine.
      "--passWithNoTests",
      ...passThrough,
      ...(file ? [`--outputFile=${file}`] : []),
    ],
    { stdio: "inherit" },
  );
  if (run.status !== 0) failed = true;
  if (file && fs.existsSync(file)) {
    reports.push(JSON.parse(fs.readFileSync(file, "utf8")));
    fs.rmSync(file);
  } else if (file) {
    // No report (Jest itself failed): counted as a failed suite, so .ci/run's line shows it.
    failed = true;
    reports.push({ numRuntimeErrorTestSuites: 1, numTotalTests: 0, testResults: [] });
  }
}

if (outputFile) {
  const sum = (key: string) => reports.reduce((n, r) => n + (r[key] || 0), 0);
  const merged = { ...reports[0], testResults: reports.flatMap((r) => r.testResults || []) };
  for (const key of new Set(reports.flatMap((r) => Object.keys(r)))) if (key.startsWith("num")) merged[key] = sum(key);
  merged.startTime = Math.min(...reports.map((r) => r.startTime || Date.now()));
  merged.success = !failed && reports.every((r) => r.success);
  fs.writeFileSync(outputFile, JSON.stringify(merged));
}
// Nothing selected in either tier is an error, as for plain Jest.
const total = reports.reduce((n, r) => n + (r.numTotalTests || 0), 0);
process.exit(failed || (outputFile && total === 0) ? 1 : 0);
