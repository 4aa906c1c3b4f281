import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('README', () => {
  it('documents every TN_* environment variable the code reads', () => {
    const readme = readFileSync('README.md', 'utf8');
    const used = new Set(['functions', 'local', 'bin', 'cli'].flatMap(sourceFiles).flatMap((file) => readFileSync(file, 'utf8').match(/\bTN_[A-Z0-9_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !readme.includes(name)).sort()).toEqual([]);
  });
});
