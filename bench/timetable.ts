import { readFile } from 'node:fs/promises';
import { findAdapter } from '../functions/ingest/adapters/index.js';
import type { Section } from '../functions/catalog/catalog-model.js';
import { buildTimetable } from '../functions/course/timetable/timetable.js';
import { callOnce } from './protocol-overhead.js';
import { round, summarize } from './stats.js';

/**
 * Loads a student might plan, on SFU's full Spring 2026 schedule: the three courses, a full
 * load, four lab and tutorial courses with many sections, and six such courses that cannot all fit
 * (the search runs out, then looks for the smallest clashing sets).
 */
const LOADS = {
  'three courses (CMPT 225, MACM 201, MATH 232)': ['CMPT 225', 'MACM 201', 'MATH 232'],
  'five courses (computing)': ['CMPT 225', 'MACM 201', 'MATH 232', 'CMPT 295', 'STAT 270'],
  'four lab and tutorial courses (CHEM 121, BISC 102, ECON 103, PHYS 120)': ['CHEM 121', 'BISC 102', 'ECON 103', 'PHYS 120'],
  'six that cannot all fit (CHEM 121, BISC 102, ECON 103, MATH 150, PHYS 121, CMPT 120)': ['CHEM 121', 'BISC 102', 'ECON 103', 'MATH 150', 'PHYS 121', 'CMPT 120'],
};

/**
 * The solver alone (in process: pairing, search, ranking) per load, and tn_course_timetable over HTTP
 * for the three-course load with a different earliest start each call, so no call is a cached result
 * (the course bundles stay warm, as they do in a warm function).
 */
export async function measureTimetable(url: string, samples: number) {
  const raw = await readFile('data/sample/sfu-catalog-2026/sections-2026-spring-all.json', 'utf8');
  const sections = findAdapter('sfu-sections')!.parse(raw, { ingestedAt: new Date().toISOString(), origin: 'bench' }).records.filter((r): r is Section => r.kind === 'section');
  const solver: Record<string, unknown> = {};
  for (const [name, codes] of Object.entries(LOADS)) {
    const courses = codes.map((code) => ({ ref: `sfu:${code}`, code, title: null, sections: sections.filter((s) => s.code === code) }));
    const times: number[] = [];
    let result = buildTimetable(courses, '2026-spring');
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      result = buildTimetable(courses, '2026-spring');
      times.push(performance.now() - started);
    }
    solver[name] = { latencyMs: summarize(times), combinations: result.combinations.length, complete: result.complete, conflicts: result.conflicts.length };
  }
  const target = { name: 'tn_course_timetable', url: `${url}/mcp/course`, tool: 'tn_course_timetable' };
  // 07:00-07:59: no SFU class starts before 08:30, so every call is the same work under a new cache key.
  const args = (i: number) => ({ term: '2026-spring', courses: LOADS['three courses (CMPT 225, MACM 201, MATH 232)'].map((c) => `sfu:${c}`), notBefore: `07:${String(i % 60).padStart(2, '0')}` });
  for (let i = 0; i < 5; i++) await callOnce({ ...target, args }, i);
  const overHttp: number[] = [];
  for (let i = 0; i < Math.min(samples, 60); i++) overHttp.push(await callOnce({ ...target, args }, i));
  return { solver, overHttp: { name: 'tn_course_timetable, three courses, uncached result, warm course bundles', latencyMs: summarize(overHttp) } };
}

export function timetableRatios(measured: Awaited<ReturnType<typeof measureTimetable>>, baselineP50: number) {
  return {
    overHttpP50VsBaseline: round(measured.overHttp.latencyMs.p50 / baselineP50, 2),
    ...Object.fromEntries(Object.entries(measured.solver).map(([name, value]) => [`solverP50VsBaseline: ${name}`, round((value as { latencyMs: { p50: number } }).latencyMs.p50 / baselineP50, 2)])),
  };
}
