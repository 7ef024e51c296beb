#!/usr/bin/env node
// Runs the built CLI. `npm install` builds dist/ through the `prepare` script.
import module from 'node:module';

// Node 22.1+ keeps the compiled code of the modules it loads on disk and reuses it at the next start.
module.enableCompileCache?.();

const { runCli } = await import('../dist/cli/run-cli.js');

runCli(process.argv).then(
  (code) => { process.exitCode = code; },
  (error) => {
    process.stderr.write(`gw: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
