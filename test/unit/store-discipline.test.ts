import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORE_MODULES } from '../../functions/all-access-patterns.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const requestPath = sourceFiles('functions');
const application = [...requestPath, ...sourceFiles('local')];
const text = (file: string) => readFileSync(file, 'utf8');

/** A store module: a `*-store.ts` file, or a file in a `store/` folder (functions/platform/store/ and any domain's). */
const isStoreModule = (file: string) => file.endsWith('-store.ts') || file.split(path.sep).includes('store');

/**
 * Modules that send commands without a store module's name: issue 14 moves them into
 * functions/catalog/ingestion, named as store modules there. Listed by name so the list only shrinks:
 * a new sender outside a store module fails, and so does a listed one that no longer sends.
 */
const KNOWN_UNNAMED_STORE_MODULES = ['functions/catalog/ingestion/ingestion-run.ts', 'functions/catalog/institution-registry.ts', 'functions/catalog/ingestion/reconcile.ts'];

/** They send for whichever store module calls them; the caller declares the access pattern. */
const SHARED_SENDERS = ['functions/platform/store/batch-reads.ts', 'functions/platform/store/batch-writes.ts', 'functions/platform/store/query-all.ts'];

/** Creating the table and turning TTL on (local/ensure-table.ts) is not an access pattern. */
const TABLE_MANAGEMENT = /^(Create|Delete|Describe|Update)(Table|TimeToLive)Command$|^ListTablesCommand$/;

/** Imports a DynamoDB command class or paginator, calls a shared sender, or sends through a store's client. */
function sendsCommands(file: string): boolean {
  const source = text(file);
  const sdkNames = [...source.matchAll(/^import\s*\{([^}]*)\}\s*from\s*'@aws-sdk\/(?:lib-dynamodb|client-dynamodb)'/gm)].flatMap((m) =>
    m[1]!.split(',').map((name) => name.trim()).filter((name) => name && !name.startsWith('type ')),
  );
  if (sdkNames.some((name) => (/Command$/.test(name) && !TABLE_MANAGEMENT.test(name)) || name.startsWith('paginate'))) return true;
  return /from '[^']*store\/(?:query-all|batch-reads|batch-writes)\.js'/.test(source) || /\.(?:doc|client)\.send\(/.test(source);
}

const senders = application.filter(sendsCommands);

/** Every key prefix keys.ts builds (`USER#`, `COURSE#`, `transfer#`…): nowhere else may a string start with one. */
const KEY_PREFIXES = [...new Set([...text('functions/platform/store/keys.ts').matchAll(/['"`]([A-Za-z][A-Za-z-]*)#/g)].map((m) => m[1]!))].sort();

describe('store discipline on request paths', () => {
  it('never scans the table', () => {
    const scanning = requestPath.filter((file) => /\bScan(Command)?\b|\bscan\(/.test(text(file)));
    expect(scanning).toEqual([]);
  });

  it('finds the senders it checks (the reader is not blind)', () => {
    expect(senders).toEqual(expect.arrayContaining(['functions/session/event-log-store.ts', 'functions/platform/store/query-all.ts', 'functions/oauth/oauth-store.ts']));
    expect(senders).not.toContain('local/ensure-table.ts');
  });

  it('sends DynamoDB commands only from store modules', () => {
    expect(senders.filter((file) => !isStoreModule(file) && !KNOWN_UNNAMED_STORE_MODULES.includes(file))).toEqual([]);
    expect(KNOWN_UNNAMED_STORE_MODULES.filter((file) => !existsSync(file) || !sendsCommands(file))).toEqual([]);
  });

  it('has every module that sends commands declare its access patterns, collected in all-access-patterns.ts', () => {
    const declaring = senders.filter((file) => !SHARED_SENDERS.includes(file));
    // Pure and lazy, so Lambda bundles leave the declarations out (see access-patterns.ts).
    expect(declaring.filter((file) => !/^export const ACCESS_PATTERNS = \/\* @__PURE__ \*\/ declareAccessPatterns\(\(\) =>/m.test(text(file)))).toEqual([]);
    expect(STORE_MODULES.map((store) => store.module).sort()).toEqual(declaring.sort());
  });

  it('builds keys only in store/keys.ts', () => {
    expect(KEY_PREFIXES).toEqual(expect.arrayContaining(['BYOK', 'CATALOG', 'COURSE', 'INGEST', 'OAUTH', 'RULE', 'SESSION', 'SOURCE', 'TRANSFER', 'USER', 'records', 'transfers-out']));
    const literalKey = new RegExp(`['"\`](${KEY_PREFIXES.join('|')})#`);
    const literalKeys = application.filter((file) => !file.endsWith(path.join('store', 'keys.ts'))).filter((file) => literalKey.test(text(file)));
    expect(literalKeys).toEqual([]);
  });

  it('keeps files small (past ~300 lines a file wants splitting)', () => {
    const large = requestPath.filter((file) => text(file).split('\n').length > 300);
    expect(large).toEqual([]);
  });
});
