import { build } from 'esbuild';
const entry = process.argv[2]!;
const result = await build({ entryPoints: [entry], outfile: '/tmp/meta-out.mjs', bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, mainFields: ['module', 'main'], metafile: true, logLevel: 'silent', write: true });
const out = Object.values(result.metafile.outputs)[0]!;
const byPkg = new Map<string, number>();
for (const [file, info] of Object.entries(out.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  const key = m ? m[1]! : file.split('/').slice(0, 2).join('/');
  byPkg.set(key, (byPkg.get(key) ?? 0) + info.bytesInOutput);
}
console.log('total', out.bytes);
for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(v).padStart(9), k);
