import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The structure the code promises (issue 14): dependencies between the folders of functions/ point one
 * way, and a domain's tool bindings and Lambda entry are imported only from inside that domain (others
 * import its contract). Seams not yet cut are listed here by name, so the list can only shrink: a new
 * violation fails, and so does a listed one that no longer exists.
 */
const KNOWN_BINDING_IMPORTS = [
  // The local server and the contract generator run every domain in one process (the AWS router uses contracts only).
  'functions/all-tools.ts → functions/course/index.ts',
  'functions/all-tools.ts → functions/session/index.ts',
  'functions/all-tools.ts → functions/transfer/index.ts',
  'functions/all-tools.ts → functions/user/index.ts',
];

const ROOT = path.resolve('functions');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative import of every file under functions/, resolved to a repository path. */
function imports(): { from: string; to: string }[] {
  return sourceFiles(ROOT).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((match) => ({
      from: path.relative(process.cwd(), file),
      to: path.relative(process.cwd(), path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts'))),
    })),
  );
}

/** `functions/course/tools/get.ts` → `course`; files directly in functions/ belong to no folder. */
const folderOf = (file: string) => {
  const parts = file.split(path.sep);
  return parts.length > 2 ? parts[1]! : undefined;
};

/** Each cycle of the folder graph once, as `a → b → … → a` starting at its smallest folder. */
function folderCycles(folders: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const walk = (start: string, at: string, trail: string[]) => {
    for (const next of folders.get(at) ?? []) {
      if (next === start) cycles.add([...trail, start].join(' → '));
      else if (next > start && !trail.includes(next)) walk(start, next, [...trail, next]);
    }
  };
  for (const start of [...folders.keys()].sort()) walk(start, start, [start]);
  return [...cycles].sort();
}

describe('import graph of functions/', () => {
  const edges = imports();

  it('finds the imports it checks (the reader is not blind)', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges).toContainEqual({ from: 'functions/transfer/handler.ts', to: 'functions/transfer/index.ts' });
  });

  it('has no folder cycles, of any length, and shared depends on no domain', () => {
    const folders = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a && b && a !== b) (folders.get(a) ?? folders.set(a, new Set()).get(a)!).add(b);
    }
    expect([...(folders.get('shared') ?? [])]).toEqual([]);
    expect(folderCycles(folders)).toEqual([]);
  });

  it('finds a cycle through three folders (the check is not blind)', () => {
    const folders = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
    expect(folderCycles(folders)).toEqual(['a → b → c → a']);
  });

  it('keeps every domain out of the AWS router: it reaches contracts, never a binding or the tutor', () => {
    const next = new Map<string, string[]>();
    for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
    const reached = new Set<string>();
    const stack = ['functions/router/handler.ts'];
    while (stack.length) {
      const file = stack.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      stack.push(...(next.get(file) ?? []));
    }
    expect([...reached].filter((file) => file.includes('/contracts/')).length).toBeGreaterThan(30);
    expect([...reached].filter((file) => /^functions\/(?!shared\/)[a-z]+\/(tools\/|handler\.ts$|index\.ts$)/.test(file) || file.includes('/tutor/'))).toEqual([
      'functions/router/handler.ts',
    ]);
  });

  it("imports a domain's tool bindings and Lambda entry only from inside the domain, beyond the listed seams", () => {
    const bindingImports = new Set<string>();
    for (const { from, to } of edges) {
      const domain = folderOf(to);
      // A domain's bindings: its tools/ files, the index that lists them, its Lambda entry (shared/ is the framework).
      const isBinding = /^functions\/(?!shared\/)[a-z]+\/(tools\/|handler\.ts$|index\.ts$)/.test(to);
      if (isBinding && folderOf(from) !== domain) bindingImports.add(`${from} → ${to.includes('/tools/') ? path.dirname(to) : to}`);
    }
    expect([...bindingImports].sort()).toEqual([...KNOWN_BINDING_IMPORTS].sort());
  });
});
