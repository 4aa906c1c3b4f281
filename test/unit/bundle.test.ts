import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleOf } from '../../local/bundle.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tn-bundle-'));
  await mkdir(path.join(root, 'src', 'data'), { recursive: true });
  await writeFile(path.join(root, 'src', 'data', 'greeting.txt'), 'hello from beside the source');
  // A module that finds a file beside itself, as the sample catalog's modules do.
  await writeFile(
    path.join(root, 'src', 'greeting.ts'),
    "import { readFileSync } from 'node:fs';\nexport const greeting = (): string => readFileSync(new URL('./data/greeting.txt', import.meta.url), 'utf8');\n",
  );
  await writeEntry('one');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeEntry(version: string): Promise<void> {
  await writeFile(path.join(root, 'src', 'main.ts'), `import { greeting } from './greeting.js';\nexport const version: string = '${version}';\nexport const said = greeting();\n`);
}

async function load(file: string): Promise<{ version: string; said: string }> {
  // A query string per load: Node caches modules by URL.
  return import(`${pathToFileURL(file).href}?load=${Math.random()}`);
}

describe('bundleOf', () => {
  it('builds a bundle whose modules still find files beside their sources', async () => {
    const bundle = await bundleOf('src/main.ts', { root });
    expect(bundle.built).toBe(true);
    expect(bundle.file.startsWith(path.join(root, 'node_modules', '.cache', 'tutor-nexus'))).toBe(true);
    const loaded = await load(bundle.file);
    expect(loaded.version).toBe('one');
    expect(loaded.said).toBe('hello from beside the source');
  });

  it('reuses the bundle while no input changed, and rebuilds when one did', async () => {
    const first = await bundleOf('src/main.ts', { root });
    const again = await bundleOf('src/main.ts', { root });
    expect(again).toEqual({ file: first.file, built: false });

    await writeEntry('two, a longer one');
    const rebuilt = await bundleOf('src/main.ts', { root });
    expect(rebuilt.built).toBe(true);
    expect(rebuilt.file).not.toBe(first.file);
    expect((await load(rebuilt.file)).version).toBe('two, a longer one');
  });

  it('keeps only the newest builds', async () => {
    for (const version of ['a', 'bb', 'ccc', 'dddd', 'eeeee']) {
      await writeEntry(version);
      await bundleOf('src/main.ts', { root });
    }
    const cache = path.join(root, 'node_modules', '.cache', 'tutor-nexus');
    const builds = (await readdir(cache)).filter((name) => !name.endsWith('.json'));
    expect(builds).toHaveLength(3);
  });

  it('reports a source that does not compile, and builds once it does', async () => {
    await writeFile(path.join(root, 'src', 'main.ts'), 'export const broken = ;\n');
    await expect(bundleOf('src/main.ts', { root })).rejects.toThrow(/main\.ts/);
    await writeEntry('fixed');
    const bundle = await bundleOf('src/main.ts', { root });
    expect(bundle.built).toBe(true);
    expect((await load(bundle.file)).version).toBe('fixed');
    const cache = path.join(root, 'node_modules', '.cache', 'tutor-nexus');
    expect((await readdir(cache)).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
