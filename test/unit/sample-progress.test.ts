import { describe, expect, it } from 'vitest';
import { progressReporter, type SampleProgress } from '../../local/sample-catalog.js';
import { sampleFiles } from '../../functions/ingest/sources.js';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, columns: 100, write: (chunk: string) => written.push(chunk) } as unknown as NodeJS.WriteStream, written };
}

const run = { runId: 'r', source: 's', origin: 'o', status: 'succeeded' as const, startedAt: '', finishedAt: '', durationMs: 1500, counts: { parsed: 10, written: 9, unchanged: 1, retired: 0, rejected: 2 }, errors: [] };
const step = (phase: SampleProgress['phase'], index: number, bytesDone: number): SampleProgress => ({ file: `f${index}.json`, source: 's', phase, index, total: 2, filesDone: bytesDone === 100 ? 2 : bytesDone > 0 ? 1 : 0, bytesDone, bytesTotal: 100, ...(phase === 'loaded' ? { run } : {}) });

describe('sample catalog progress', () => {
  it('draws one redrawn bar on a TTY, ending the line after the last file', () => {
    const { stream, written } = fakeStream(true);
    const report = progressReporter(stream);
    report(step('loading', 0, 0));
    report(step('loaded', 0, 40));
    report(step('loaded', 1, 100));
    expect(written.filter((w) => w.startsWith('\r'))).toHaveLength(3);
    expect(written[1]).toMatch(/ 40%  1\/2 files/);
    expect(written.at(-1)).toBe('\n');
  });

  it('writes plain lines off a TTY, one per file loaded, and nothing for skipped files', () => {
    const { stream, written } = fakeStream(false);
    const report = progressReporter(stream);
    report(step('skipped', 0, 40));
    report(step('loading', 1, 40));
    report(step('loaded', 1, 100));
    expect(written).toEqual(['sample catalog 2/2 f1.json: 10 records, 9 written, 2 quarantined (1.5 s)\n']);
  });

  it('full and core samples: full swaps the SFU subsets for the all-department files and adds every new source', () => {
    const full = sampleFiles('full').map((f) => f.file);
    const core = sampleFiles('core').map((f) => f.file);
    expect(full).toContain('sfu-catalog-2026/outlines-all.json');
    expect(full).not.toContain('sfu-outlines/outlines.json');
    expect(core).toContain('sfu-outlines/outlines.json');
    // The 2021S–2025W grades supersede the per-subject files of the sessions they cover.
    expect(full).not.toContain('ubc-grades/tableau-dashboard-v2/UBCV-2024W-CPSC.csv');
    expect(core).toContain('ubc-grades/tableau-dashboard-v2/UBCV-2024W-CPSC.csv');
    expect(full).toContain('ubc-grades/pair-reports/UBC-2015W-CPSC.csv');
    for (const folder of ['sfu-catalog-2026', 'ubc-catalog-2026', 'ubco-catalog-2024', 'uvic-catalog-2024', 'ubc-grades-2021-2025']) {
      expect(full.some((f) => f.startsWith(`${folder}/`))).toBe(true);
      expect(core.some((f) => f.startsWith(`${folder}/`))).toBe(false);
    }
  });
});
