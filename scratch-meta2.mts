import { build } from 'esbuild';
const entry = process.argv[2]!; const filter = process.argv[3]!;
const result = await build({ entryPoints: [entry], outfile: '/tmp/meta-out.mjs', bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, mainFields: ['module', 'main'], metafile: true, logLevel: 'silent', write: true });
const out = Object.values(result.metafile.outputs)[0]!;
const rows = Object.entries(out.inputs).filter(([f]) => f.includes(filter)).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 15);
for (const [f, i] of rows) console.log(String(i.bytesInOutput).padStart(8), f.replace(/.*node_modules\//, ''));
