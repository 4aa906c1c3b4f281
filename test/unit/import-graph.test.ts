import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The structure the code promises (issues 14 and 33): the folders of functions/ stand on three floors,
 * platform (store, auth, crypto, config, observability) under mcp (the MCP framework) under catalog (the
 * catalog model, its storage, search and ingestion engine), with the domains above them and the edges
 * (router, authorization server, ingestion entry) on top. A folder imports only folders below it, except
 * another domain's contracts; no two files import each other round (at run time); and a domain's tool
 * bindings and Lambda entry are imported only from inside that domain. Seams not yet cut are listed here
 * by name, so the list can only shrink: a new violation fails, and so does a listed one that no longer exists.
 */
const KNOWN_BINDING_IMPORTS = [
  // The local server and the contract generator run every domain in one process (the AWS router uses contracts only).
  'functions/all-tools.ts → functions/course/index.ts',
  'functions/all-tools.ts → functions/session/index.ts',
  'functions/all-tools.ts → functions/transfer/index.ts',
  'functions/all-tools.ts → functions/user/index.ts',
];

/** Each folder's floor: a folder may import folders on lower floors only (and other domains' contracts/). */
const FLOOR: Record<string, number> = {
  platform: 0,
  mcp: 1,
  catalog: 2,
  course: 3,
  transfer: 3,
  user: 3,
  // The tutor reads the user's keys, preferences and plan, and calls course and transfer tools by contract.
  session: 4,
  ingest: 5,
  oauth: 5,
  router: 5,
};

/** A domain's tool bindings, the index listing them and its Lambda entry (the floors have none). */
const isBinding = (file: string) => /^functions\/(?!(?:platform|mcp|catalog)\/)[a-z]+\/(tools\/|handler\.ts$|index\.ts$)/.test(file);

const ROOT = path.resolve('functions');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Every relative import of every file under functions/, resolved to a repository path; `typeOnly` imports vanish at run time. */
function imports(): { from: string; to: string; typeOnly: boolean }[] {
  return sourceFiles(ROOT).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)(\s+type\b)?[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm)].map((match) => ({
      from: path.relative(process.cwd(), file),
      to: path.relative(process.cwd(), path.resolve(path.dirname(file), match[2]!.replace(/\.js$/, '.ts'))),
      typeOnly: Boolean(match[1]),
    })),
  );
}

/** Each cycle of a file graph's strongly connected parts, as its sorted files. */
function fileCycles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) === index.get(file)) {
      const part = stack.splice(stack.indexOf(file));
      if (part.length > 1) cycles.push(part.sort());
    }
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return cycles;
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
    expect(edges).toContainEqual({ from: 'functions/transfer/handler.ts', to: 'functions/transfer/index.ts', typeOnly: false });
  });

  it('has no folder cycles, of any length', () => {
    const folders = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a && b && a !== b) (folders.get(a) ?? folders.set(a, new Set()).get(a)!).add(b);
    }
    expect(folderCycles(folders)).toEqual([]);
  });

  it('puts every folder on a floor, and each imports only lower floors (or another domain\'s contracts)', () => {
    const folders = new Set(sourceFiles(ROOT).map((file) => folderOf(path.relative(process.cwd(), file))).filter(Boolean));
    expect([...folders].filter((folder) => FLOOR[folder!] === undefined)).toEqual([]);
    const upward = edges.filter(({ from, to }) => {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (!a || !b || a === b) return false;
      if (FLOOR[b]! < FLOOR[a]!) return false;
      return !(FLOOR[a]! >= FLOOR.course! && FLOOR[b]! >= FLOOR.course! && to.includes('/contracts/'));
    });
    expect(upward.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it('finds an upward import when there is one (the floor check is not blind)', () => {
    expect(FLOOR.platform).toBeLessThan(FLOOR.mcp!);
    expect(edges.some(({ from, to }) => folderOf(from) === 'mcp' && folderOf(to) === 'platform')).toBe(true);
  });

  it('has no import cycles between files at run time', () => {
    expect(fileCycles(edges.filter((edge) => !edge.typeOnly))).toEqual([]);
    expect(fileCycles([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }])).toEqual([['a', 'b', 'c']]);
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
    expect([...reached].filter((file) => isBinding(file) || file.includes('/tutor/'))).toEqual([
      'functions/router/handler.ts',
    ]);
  });

  it("imports a domain's tool bindings and Lambda entry only from inside the domain, beyond the listed seams", () => {
    const bindingImports = new Set<string>();
    for (const { from, to } of edges) {
      const domain = folderOf(to);
      if (isBinding(to) && folderOf(from) !== domain) bindingImports.add(`${from} → ${to.includes('/tools/') ? path.dirname(to) : to}`);
    }
    expect([...bindingImports].sort()).toEqual([...KNOWN_BINDING_IMPORTS].sort());
  });
});
