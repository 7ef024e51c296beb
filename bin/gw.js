#!/usr/bin/env node
// Runs the built CLI. `npm install` builds dist/ through the `prepare` script.
import { runCli } from '../dist/cli/main.js';

runCli(process.argv).then(
  (code) => { process.exitCode = code; },
  (error) => {
    process.stderr.write(`gw: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
