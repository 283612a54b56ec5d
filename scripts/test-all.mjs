#!/usr/bin/env node
/**
 * `npm test`: every suite, in order, each run even when an earlier one failed, then ONE closing
 * line totalling them all: `N passed, N failed, N skipped` (CI reads it).
 *   lint, typecheck (node + web) and build count as one check each;
 *   vitest (unit + integration) and Playwright (e2e, after the build) count their tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function run(label, cmd, args) {
  console.log(`\n=== ${label}: ${[cmd, ...args].map((a) => a.replace(root + '/', '')).join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const ok = r.status === 0;
  console.log(`=== ${label}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${secs}s`);
  return ok;
}

function check(label, cmd, args) {
  if (run(label, cmd, args)) totals.passed++;
  else {
    totals.failed++;
    failures.push(label);
  }
}

check('lint', bin('eslint'), ['--max-warnings', '0', '.']);
check('typecheck (node: sync, server, main, tests)', bin('tsc'), ['-p', 'tsconfig.json']);
check('typecheck (web: renderer, sync/protocol)', bin('tsc'), ['-p', 'tsconfig.web.json']);
check('build (electron-vite: main, preload, renderer)', bin('electron-vite'), ['build']);

const resultsFile = join(root, '.vitest-results.json');
rmSync(resultsFile, { force: true });
const vitestOk = run('vitest (unit + integration)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${resultsFile}`,
]);
if (existsSync(resultsFile)) {
  const r = JSON.parse(readFileSync(resultsFile, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  // A suite that failed to load has no tests to count: count it as one failure.
  const brokenFiles = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  totals.failed += brokenFiles;
  if (r.numFailedTests + brokenFiles > 0) failures.push('vitest');
  else if (!vitestOk) {
    totals.failed++;
    failures.push('vitest (exited non-zero)');
  }
} else {
  totals.failed++;
  failures.push('vitest (no results)');
}

// End-to-end: Playwright in Debian's Chromium against the browser-mode host serving the build above.
const e2eFile = join(root, 'test-results', 'e2e-results.json');
const chromium = '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`\n=== e2e (playwright): FAILED: ${chromium} is missing (CI installs it: apt-get install -y chromium)`);
  totals.failed++;
  failures.push('e2e (no chromium)');
} else {
  rmSync(e2eFile, { force: true });
  process.env.PLAYWRIGHT_JSON_OUTPUT_NAME = e2eFile;
  const e2eOk = run('e2e (playwright, chromium)', bin('playwright'), ['test', '--reporter=list,json']);
  delete process.env.PLAYWRIGHT_JSON_OUTPUT_NAME;
  if (existsSync(e2eFile)) {
    const s = JSON.parse(readFileSync(e2eFile, 'utf8')).stats;
    totals.passed += s.expected + s.flaky;
    totals.failed += s.unexpected;
    totals.skipped += s.skipped;
    // Errors outside any test (a fixture or config that failed to load) leave no test to count.
    const broken = s.unexpected === 0 && !e2eOk ? 1 : 0;
    totals.failed += broken;
    if (s.unexpected + broken > 0) failures.push('e2e');
  } else {
    totals.failed++;
    failures.push('e2e (no results)');
  }
}

if (failures.length) console.log(`\nFailed: ${failures.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 ? 0 : 1);
