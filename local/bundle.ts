// Bundles a TypeScript entry with esbuild for Node to load without tsx. tsx resolves and transforms each
// of the ~1,300 modules the local server imports through an off-thread hook, which costs more than a
// second of every `npm start`; one bundle loads in about half that.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/** Raised when anything about how bundles are built changes, so no older bundle is reused. */
const BUNDLE_FORMAT = 1;
/** Builds kept beside the current one: a server still running from one may yet import its lazy chunks. */
const BUILDS_KEPT = 3;

export interface BundleOptions {
  /** The project root: the entry and every recorded input are relative to it. */
  root?: string;
  /** Where bundles and their records live; node_modules/.cache/tutor-nexus under the root by default. */
  cacheDir?: string;
}

export interface Bundle {
  /** The bundle's entry module: import it (from a module tsx did not load, or tsx's hooks load it again). */
  file: string;
  /** Whether this call built it (false: an up-to-date bundle was reused). */
  built: boolean;
}

/** What a bundle was built from: every input file with its size and modification time. */
interface BundleRecord {
  key: string;
  dir: string;
  inputs: [file: string, mtimeMs: number, size: number][];
}

/**
 * The bundle of `entry` (a path relative to the root), built first when it is missing or any file it
 * was built from has changed since (compared by size and modification time).
 */
export async function bundleOf(entry: string, options: BundleOptions = {}): Promise<Bundle> {
  const root = path.resolve(options.root ?? process.cwd());
  const cacheDir = options.cacheDir ?? path.join(root, 'node_modules', '.cache', 'tutor-nexus');
  const stem = entry.replace(/\.[cm]?tsx?$/, '');
  const name = stem.replace(/[^A-Za-z0-9]+/g, '-');
  const recordFile = path.join(cacheDir, `${name}.json`);
  const key = `${BUNDLE_FORMAT} ${root} ${entry}`;
  let record = await readRecord(recordFile);
  const built = !record || record.key !== key || !inputsUnchanged(root, record);
  if (built) {
    record = await buildBundle(root, entry, cacheDir, name, key);
    await writeAtomically(recordFile, JSON.stringify(record));
    await removeOldBuilds(cacheDir, name, record.dir);
  }
  const file = path.join(cacheDir, record!.dir, `${path.basename(stem)}.js`);
  return { file, built };
}

async function readRecord(file: string): Promise<BundleRecord | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as BundleRecord;
  } catch {
    return undefined;
  }
}

function inputsUnchanged(root: string, record: BundleRecord): boolean {
  // Synchronous stats: a thousand of them take a few milliseconds, less than scheduling them would.
  return record.inputs.every(([file, mtimeMs, size]) => {
    try {
      const now = statSync(path.join(root, file));
      return now.mtimeMs === mtimeMs && now.size === size;
    } catch {
      return false;
    }
  });
}

async function buildBundle(root: string, entry: string, cacheDir: string, name: string, key: string): Promise<BundleRecord> {
  const { build } = await import('esbuild');
  const staging = path.join(cacheDir, `.${name}-${randomBytes(6).toString('hex')}`);
  await mkdir(staging, { recursive: true });
  try {
    const result = await build({
      entryPoints: [path.join(root, entry)],
      absWorkingDir: root,
      outdir: staging,
      bundle: true,
      splitting: true, // lazily imported parts (the AI SDK's providers) stay lazy
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // A native binary: imported from node_modules as it is.
      external: ['esbuild'],
      // Written, not enabled: NODE_OPTIONS=--enable-source-maps maps stack traces back to the sources.
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent', // the error thrown carries esbuild's messages
      // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      plugins: [sourceFileUrls()],
    });
    const inputs = Object.keys(result.metafile.inputs).map((file): BundleRecord['inputs'][number] => {
      const stats = statSync(path.join(root, file));
      return [file, stats.mtimeMs, stats.size];
    });
    const dir = `${name}-${createHash('sha256').update(JSON.stringify([key, inputs])).digest('hex').slice(0, 16)}`;
    try {
      await rename(staging, path.join(cacheDir, dir));
    } catch {
      // Another start built the same inputs first; its bundle is identical.
      await rm(staging, { recursive: true, force: true });
    }
    return { key, dir, inputs };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The project's own modules locate files beside them with `import.meta.url`; in a bundle that would
 * be the bundle's URL, so each keeps the URL of the file it was written in.
 */
function sourceFileUrls(): Plugin {
  return {
    name: 'source-file-urls',
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

async function writeAtomically(file: string, contents: string): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
}

/** Keeps the newest builds of this entry and removes the rest (and any staging a killed build left). */
async function removeOldBuilds(cacheDir: string, name: string, current: string): Promise<void> {
  const builds = await Promise.all(
    (await readdir(cacheDir))
      .filter((entry) => entry !== current && (entry.startsWith(`${name}-`) || entry.startsWith(`.${name}-`)) && !entry.endsWith('.json'))
      .map(async (entry) => ({ entry, mtimeMs: (await stat(path.join(cacheDir, entry)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  const hourAgo = Date.now() - 3_600_000;
  const abandonedStagings = builds.filter(({ entry, mtimeMs }) => entry.startsWith('.') && mtimeMs < hourAgo);
  const olderBuilds = builds.filter(({ entry }) => !entry.startsWith('.')).sort((a, b) => b.mtimeMs - a.mtimeMs).slice(BUILDS_KEPT - 1);
  const stale = [...abandonedStagings, ...olderBuilds];
  await Promise.all(stale.map(({ entry }) => rm(path.join(cacheDir, entry), { recursive: true, force: true })));
}
