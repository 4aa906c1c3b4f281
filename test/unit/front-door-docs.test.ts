import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Relative link targets of a Markdown file, resolved against its folder (anchors dropped). */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.split('#')[0]!)
    .filter((target) => target && !/^[a-z]+:/i.test(target))
    .map((target) => path.join(path.dirname(file), decodeURIComponent(target)));
}

describe('the front door and the docs it links', () => {
  it('the README stays a front door: at most ~180 lines', () => {
    expect(readFileSync('README.md', 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(180);
  });

  it('docs/configuration.md documents every TN_* environment variable the code reads', () => {
    const configuration = readFileSync('docs/configuration.md', 'utf8');
    const used = new Set(['functions', 'local', 'bin', 'cli'].flatMap(sourceFiles).flatMap((file) => readFileSync(file, 'utf8').match(/\bTN_[A-Z0-9_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !configuration.includes(name)).sort()).toEqual([]);
  });

  it('every relative link in the README, docs/ and bench/README.md points at a file that exists', () => {
    const pages = ['README.md', 'bench/README.md', ...readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    const broken = pages.flatMap((page) => relativeLinks(page).filter((target) => !existsSync(target)).map((target) => `${page} → ${target}`));
    expect(broken).toEqual([]);
  });
});
