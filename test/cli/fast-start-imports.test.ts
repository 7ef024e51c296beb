// `gw --version`, `gw --help` and any command cost little more than starting Node because what
// bin/gw.js loads before it knows the command imports none of the commands' code: each command's
// module is imported (dynamically) only when it runs (src/cli/command-table.ts). This walks the
// static imports from bin/gw.js's entry and fails when one reaches a command or what they use.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The src/ file bin/gw.js runs: dist/cli/X.js is built from src/cli/X.ts. */
function entryOfBin(): string {
  const bin = readFileSync(path.join(root, 'bin/gw.js'), 'utf8');
  const built = /\.\.\/dist\/(cli\/[\w-]+)\.js/.exec(bin)?.[1];
  if (built === undefined) throw new Error('bin/gw.js names no dist/cli/ module');
  return path.join(root, 'src', `${built}.ts`);
}

/** Every module reached by static value imports (not `import type`, not `await import()`): src/ files and package names. */
function staticImports(entry: string): Set<string> {
  const reached = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) {
      const target = match[1] ?? '';
      if (target.startsWith('.')) pending.push(path.resolve(path.dirname(file), target).replace(/\.js$/, '.ts'));
      else reached.add(target);
    }
  }
  return reached;
}

it('what gw loads before it knows the command holds no command and none of their libraries', () => {
  const reached = [...staticImports(entryOfBin())].map((file) => (file.startsWith(root) ? path.relative(root, file) : file));
  expect(reached).toContain('commander');
  expect(reached.filter((file) => /^src\/cli\/commands\/|^src\/(state|audit|postgres|providers|gateway|server)\//.test(file) || /^(pg|undici|lowdb|@modelcontextprotocol\/)/.test(file))).toEqual([]);
  // A handful of light modules: the program's shell, the table of commands, the context.
  expect(reached.filter((file) => file.startsWith('src/')).length).toBeLessThan(10);
});
