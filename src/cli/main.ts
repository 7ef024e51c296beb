// The CLI's entry points: `runCli` (what bin/gw.js runs; run-cli.ts loads only the command being
// run) and `buildProgram`, the whole commander program (whole-program.ts), for what needs every
// command at once: completions, a hub running remote commands, tests running the CLI in-process.
export { buildProgram } from './whole-program.js';
export { runCli } from './run-cli.js';
