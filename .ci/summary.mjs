// Reads vitest's JSON reports, prints one line per suite and fails if any test failed or was skipped.
import { readFileSync } from 'node:fs';

let bad = false;
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
  if (report.numFailedTests > 0 || skipped > 0 || report.numTotalTests === 0) bad = true;
  for (const suite of report.testResults) {
    for (const test of suite.assertionResults) {
      if (test.status !== 'passed') console.log(`  ${test.status}: ${test.fullName}`);
    }
  }
}
if (bad) {
  console.log('CI FAILED: every test must run and pass; nothing may be skipped.');
  process.exit(1);
}
console.log('CI passed.');
