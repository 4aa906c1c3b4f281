import { SearchIndex } from '../functions/catalog/catalog-index.js';
import { realCourses, syntheticCatalog } from './catalog.js';
import { round, summarize } from './stats.js';

/** What a person has typed so far: institutions, course references cut after the colon, and lists. */
function typedValues(refs: string[], count: number): { ref: { type: 'ref/prompt'; name: string }; argument: { name: string; value: string } }[] {
  return Array.from({ length: count }, (_, i) => {
    const ref = refs[(i * 7919) % refs.length]!;
    const colon = ref.indexOf(':');
    const cut = ref.slice(0, colon + 1 + (i % (ref.length - colon)));
    if (i % 5 === 0) return { ref: { type: 'ref/prompt', name: 'plan-my-transfer' }, argument: { name: 'from', value: ref.slice(0, 1 + (i % 3)) } };
    if (i % 5 === 1) return { ref: { type: 'ref/prompt', name: 'plan-my-transfer' }, argument: { name: 'courses', value: `${refs[i % refs.length]}, ${cut}` } };
    return { ref: { type: 'ref/prompt', name: 'can-i-take' }, argument: { name: 'course', value: cut } };
  });
}

async function completeOnce(url: string, id: number, params: unknown): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'completion/complete', params }),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"completion"')) throw new Error(`completion: unexpected response ${response.status} ${text.slice(0, 200)}`);
  return performance.now() - started;
}

/**
 * `completion/complete` over the local server on the shipped catalog (sequential, anonymous, the index
 * warm), and the prefix lookup alone on a synthetic catalog of `size` courses.
 */
export async function measureCompletion(serverUrl: string, options: { samples: number; size: number }) {
  const real = await realCourses();
  const refs = real.map((c) => c.ref);
  const values = typedValues(refs, options.samples);
  for (let i = 0; i < 50; i++) await completeOnce(`${serverUrl}/mcp`, i, values[i % values.length]);
  const overHttp: number[] = [];
  for (const [i, params] of values.entries()) overHttp.push(await completeOnce(`${serverUrl}/mcp`, i, params));

  const synthetic = syntheticCatalog(real, options.size);
  const index = SearchIndex.build(synthetic);
  const synthRefs = synthetic.map((course) => course.ref);
  const lookups: number[] = [];
  for (let i = 0; i < options.samples; i++) {
    const ref = synthRefs[(i * 7919) % synthRefs.length]!;
    const prefix = ref.slice(0, ref.indexOf(':') + 1 + (i % 6));
    const started = performance.now();
    index.refsStartingWith(prefix, 100);
    lookups.push(performance.now() - started);
  }
  const http = summarize(overHttp);
  const lookup = summarize(lookups);
  return {
    overHttp: { name: 'completion/complete on /mcp (institutions, course references, course lists; shipped catalog)', latencyMs: http },
    prefixLookup: { name: `refsStartingWith on ${index.size} synthetic courses, up to 100 values`, latencyMs: lookup },
    lookupShareOfHttpP50: round(lookup.p50 / http.p50, 4),
  };
}
