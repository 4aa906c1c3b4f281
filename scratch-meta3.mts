import { build } from 'esbuild';
const entry = process.argv[2]!;
const result = await build({ entryPoints: [entry], outfile: '/tmp/meta-out.mjs', bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, mainFields: ['module', 'main'], metafile: true, logLevel: 'silent', write: true });
const out = Object.values(result.metafile.outputs)[0]!;
const groups: Record<string, RegExp> = { zodLocales: /zod\/v4\/locales/, zodOther: /zod\//, ajv: /ajvProvider|node_modules\/ajv/, xray: /aws-xray-sdk|cls-hooked|semver/, openapi: /zod-to-openapi/ };
const sums: Record<string, number> = {};
for (const [f, i] of Object.entries(out.inputs)) { const g = Object.keys(groups).find((k) => groups[k]!.test(f)) ?? 'rest'; sums[g] = (sums[g] ?? 0) + i.bytesInOutput; }
console.log(out.bytes, sums);
