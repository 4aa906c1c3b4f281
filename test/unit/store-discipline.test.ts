import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const requestPath = sourceFiles('functions');

describe('store discipline on request paths', () => {
  it('never scans the table', () => {
    const scanning = requestPath.filter((file) => /\bScan(Command)?\b|\bscan\(/.test(readFileSync(file, 'utf8')));
    expect(scanning).toEqual([]);
  });

  it('builds keys only in store/keys.ts', () => {
    const literalKeys = requestPath
      // access-patterns.ts documents key shapes in prose; keys.ts builds them.
      .filter((file) => !file.endsWith(path.join('store', 'keys.ts')) && !file.endsWith(path.join('store', 'access-patterns.ts')))
      .filter((file) => /['"`](USER|PAT|BYOK|QUOTA|SESSION|EVENT|REQUEST|DRAFT|DEVICE)#/.test(readFileSync(file, 'utf8')));
    expect(literalKeys).toEqual([]);
  });

  it('keeps files small (past ~300 lines a file wants splitting)', () => {
    const large = requestPath.filter((file) => readFileSync(file, 'utf8').split('\n').length > 300);
    expect(large).toEqual([]);
  });
});
