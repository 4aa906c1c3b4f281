import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CONTRACTS } from '../../functions/all-contracts.js';
import { buildWebApp } from '../../web/build.js';

/**
 * The web app and the CLI are typed from the tool contracts, but carry none of them: what they import
 * from functions/ is `import type` (erased), except a few pure modules they share with the server.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT_DIRS = ['web/src', 'web/views', 'cli'];
/** Pure modules (no zod, no store, no MCP) whose rules the pages must apply exactly as the server does. */
const SHARED_AT_RUN_TIME = new Set([
  'functions/course/prerequisites/grades.ts',
  'functions/course/prerequisites/check.ts',
  'functions/course/instructor-names.ts',
  'functions/catalog/institutions.ts',
]);

const filesUnder = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [path.join(dir, entry.name)] : [],
  );

/** `../../functions/x.js` as the file it names: `functions/x.ts` (or `.tsx`). */
const resolve = (file: string, specifier: string) => {
  const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier)).replace(/\.js$/, '');
  return ['.ts', '.tsx'].map((extension) => target + extension).find((candidate) => existsSync(path.join(ROOT, candidate))) ?? target;
};

const importsOfFunctions = CLIENT_DIRS.flatMap(filesUnder).flatMap((file) =>
  [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/^import(\s+type\b)?[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)]
    .map((match) => ({ file, target: resolve(file, match[2]!), typeOnly: Boolean(match[1]) }))
    .filter((found) => found.target.startsWith('functions/')),
);

describe('the web app and the CLI against the contracts', () => {
  it('import contracts for their types (the reader is not blind)', () => {
    const contractTypes = importsOfFunctions.filter((i) => i.typeOnly && /\/contracts\//.test(i.target));
    expect(contractTypes.length).toBeGreaterThan(10);
    expect(new Set(contractTypes.map((i) => i.file.split('/')[0]))).toEqual(new Set(['web', 'cli']));
  });

  it('import nothing from functions/ at run time but the listed pure modules', () => {
    const atRunTime = importsOfFunctions.filter((i) => !i.typeOnly).map((i) => `${i.file} → ${i.target}`);
    expect(atRunTime.filter((line) => !SHARED_AT_RUN_TIME.has(line.split(' → ')[1]!))).toEqual([]);
  });

  it('ship no contract in the web bundle: no tool description the pages are typed from is in its JavaScript', async () => {
    const bundle = await buildWebApp();
    const javascript = [...bundle.entries()].filter(([file]) => file.endsWith('.js')).map(([, asset]) => new TextDecoder().decode(asset.body)).join('\n');
    const typedFrom = new Set(importsOfFunctions.filter((i) => i.file.startsWith('web/') && /\/contracts\//.test(i.target)).map((i) => i.target));
    expect(typedFrom.size).toBeGreaterThan(5);
    // Each contract's description opens with words no page writes itself.
    for (const contract of ALL_CONTRACTS) expect(javascript.includes(contract.description.slice(0, 60)), contract.name).toBe(false);
    expect(javascript).not.toContain('strictObject');
  });
});
