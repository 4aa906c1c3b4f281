import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, buildSync, type BuildOptions, type OutputFile } from 'esbuild';

const VIEWS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** Every view this folder holds: a `<name>.tsx` here is a view's page (helpers live in lib/ and runtime/). */
export function viewNames(): string[] {
  return readdirSync(VIEWS_DIR)
    .filter((file) => file.endsWith('.tsx'))
    .map((file) => file.slice(0, -'.tsx'.length))
    .sort();
}

/** A view's page: one HTML document with its script and style inline (MCP Apps views load nothing else). */
export type ViewPageSet = Map<string, string>;

const optionsFor = (names: string[]): BuildOptions => ({
  entryPoints: names.map((name) => ({ in: path.join(VIEWS_DIR, `${name}.tsx`), out: name })),
  bundle: true,
  write: false,
  minify: true,
  // A classic script: inline module scripts gain nothing here, and every host's sandbox runs this.
  format: 'iife',
  target: ['es2022'],
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: '/views',
  legalComments: 'none',
  logLevel: 'silent',
  define: { 'process.env.NODE_ENV': '"production"' },
});

/** Builds each named view (`web/views/<name>.tsx`) into its self-contained page. */
async function buildViewPages(names: string[]): Promise<ViewPageSet> {
  return assemble(names, (await build(optionsFor(names))).outputFiles ?? []);
}

/** The same build, synchronously: CDK constructs are built in synchronous code. */
export function buildViewPagesSync(names: string[]): ViewPageSet {
  return assemble(names, buildSync(optionsFor(names)).outputFiles ?? []);
}

function assemble(names: string[], files: OutputFile[]): ViewPageSet {
  const pages: ViewPageSet = new Map();
  for (const name of names) {
    const script = files.find((file) => file.path === `/views/${name}.js`)?.text;
    const style = files.find((file) => file.path === `/views/${name}.css`)?.text ?? '';
    if (script === undefined) throw new Error(`view ${name}: the build produced no script`);
    pages.set(name, page(name, script, style));
  }
  return pages;
}

/**
 * The document. Inline text may not close its own element early: `</script`, `</style` and `<!--`
 * are escaped (valid inside the JS strings and CSS where they could appear).
 */
function page(name: string, script: string, style: string): string {
  const safeScript = script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const safeStyle = style.replace(/<\/(style)/gi, '<\\/$1');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${name.charAt(0).toUpperCase()}${name.slice(1).replaceAll('-', ' ')}</title>`,
    `<style>${safeStyle}</style>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    `<script>${safeScript}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}

const builds = new Map<string, Promise<string>>();

/**
 * Pages built in this process on their first read and kept (the local server): a server that never
 * renders a view never builds one, and editing a view needs only a restart.
 */
export function builtViewPages(): (name: string) => Promise<string> {
  return (name) => {
    let page = builds.get(name);
    if (!page) {
      page = buildViewPages([name]).then((pages) => pages.get(name)!);
      page.catch(() => builds.delete(name));
      builds.set(name, page);
    }
    return page;
  };
}

/** Writes the pages as `<dir>/<name>.html` (beside a function's bundle in AWS). */
export function writeViewPages(pages: ViewPageSet, dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, html] of pages) writeFileSync(path.join(dir, `${name}.html`), html);
}
