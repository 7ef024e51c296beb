// Writes completions/gw.bash, completions/_gw and completions/gw.fish from the real program
// (`npm run completions`); test/e2e/cli/completions.test.ts fails when they are stale.
// Usage: node dist/cli/write-completions.js [output-folder]
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProcessContext } from './cli-context.js';
import { completionFileNames, completionShells, generateCompletion } from './completions.js';
import { buildProgram } from './main.js';

// dist/cli/ (or src/cli/) sits two levels below the package root.
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function writeCompletions(folder: string): Promise<string[]> {
  const program = buildProgram(createProcessContext());
  await mkdir(folder, { recursive: true });
  const written: string[] = [];
  for (const shell of completionShells) {
    const file = path.join(folder, completionFileNames[shell]);
    await writeFile(file, generateCompletion(program, shell));
    written.push(file);
  }
  return written;
}

const folder = path.resolve(process.argv[2] ?? path.join(packageRoot, 'completions'));
for (const file of await writeCompletions(folder)) process.stdout.write(`wrote ${path.relative(process.cwd(), file) || file}\n`);
