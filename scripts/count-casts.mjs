// `npm run lint`: counts the type casts in src/ (`x as T` and `<T>x`, `as const` left out) and the non-null
// assertions (`x!`) with the TypeScript parser, and fails when either count is above its ceiling in
// scripts/cast-ceiling.json, so the counts only go down (issue 37). `--list` prints every place.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ceilingFile = path.join(root, 'scripts/cast-ceiling.json');

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function isAsConst(node) {
  return ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const';
}

function castsIn(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const where = (node) => `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isAsConst(node)) found.push({ kind: 'as', at: where(node) });
    if (ts.isNonNullExpression(node)) found.push({ kind: 'nonNull', at: where(node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const casts = sourceFiles(path.join(root, 'src')).sort().flatMap(castsIn);
const counts = { as: casts.filter((c) => c.kind === 'as').length, nonNull: casts.filter((c) => c.kind === 'nonNull').length };
if (process.argv.includes('--list')) for (const cast of casts) console.log(`${cast.kind}\t${cast.at}`);
const ceiling = JSON.parse(readFileSync(ceilingFile, 'utf8'));
const over = Object.keys(counts).filter((kind) => counts[kind] > ceiling[kind]);
console.log(`casts in src/: ${counts.as} as (ceiling ${ceiling.as}), ${counts.nonNull} non-null ! (ceiling ${ceiling.nonNull})`);
if (over.length > 0) {
  console.error(`more ${over.join(' and ')} casts than scripts/cast-ceiling.json allows: type the value instead (a type guard, a narrowing check, a typed parser); \`node scripts/count-casts.mjs --list\` prints every place`);
  process.exit(1);
}
const below = Object.keys(counts).filter((kind) => counts[kind] < ceiling[kind]);
if (below.length > 0) console.log(`below the ceiling: lower ${below.join(' and ')} in scripts/cast-ceiling.json to the counts above`);
