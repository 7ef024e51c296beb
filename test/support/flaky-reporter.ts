// Lists the e2e tests that passed only on their second try (vitest.config.ts gives the e2e tier one retry).
// A retry keeps one slow moment on a loaded 2-core machine from failing a 4,500-test run, but a test that
// needs it is a race to fix: the list is printed at the end of the run and written to
// test-results/flaky.txt, so it is seen and named in the closing note rather than hidden.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';

export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if (testCase.diagnostic()?.flaky) this.flaky.push(`${testCase.module.moduleId.replace(`${process.cwd()}/`, '')} > ${testCase.fullName}`);
  }

  onTestRunEnd(): void {
    if (this.flaky.length === 0) return;
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/flaky.txt', `${this.flaky.join('\n')}\n`);
    process.stderr.write(`\n${this.flaky.length} test(s) passed only on a retry (test-results/flaky.txt): fix the race each one shows\n${this.flaky.map((name) => `  ${name}`).join('\n')}\n`);
  }
}
