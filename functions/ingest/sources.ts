import type { SourceAdapter } from '../catalog/catalog-model.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { ingestTransferRules, TRANSFER_SOURCE } from '../transfer/ingest/transfer-ingest.js';
import { ADAPTERS } from './adapters/index.js';
import { ingestSource, type IngestionRun } from './ingest-source.js';
import type { RunOptions } from '../catalog/ingestion/ingestion-run.js';
import { materialsManifestAdapter } from './materials-manifest.js';

/** Every source `npm run ingest -- --source <name>` and the scheduled ingestion functions know. */
const SOURCES: SourceAdapter[] = [...ADAPTERS, materialsManifestAdapter];

export function sourceNamed(name: string): SourceAdapter | undefined {
  return SOURCES.find((adapter) => adapter.name === name);
}

export interface Ingestor {
  name: string;
  description: string;
  run(store: Store, origin: string, options?: RunOptions): Promise<IngestionRun>;
}

/** Every source by name: catalog adapters and the BC Transfer Guide rules. */
export const INGESTORS: Ingestor[] = [
  ...SOURCES.map((adapter) => ({
    name: adapter.name,
    description: adapter.description,
    run: (store: Store, origin: string, options?: RunOptions) => ingestSource(store, adapter, origin, options),
  })),
  {
    name: TRANSFER_SOURCE,
    description: 'BC Transfer Guide rules: PDF-derived rows or web API records/pages (format detected)',
    run: (store, origin, options) => ingestTransferRules(store, origin, options),
  },
];

export function ingestorNamed(name: string): Ingestor | undefined {
  return INGESTORS.find((ingestor) => ingestor.name === name);
}

export interface SampleFile {
  source: string;
  file: string;
  /** Only in the full sample (`npm start`, deploys): the large all-department files. */
  full?: true;
  /** Only in the core sample (the test suite's shared table): the subsets the full files supersede. */
  core?: true;
}

/** The sample catalog the project ships (data/sample/, each folder with its SOURCE.md), in load order. */
const SAMPLE_CATALOG: SampleFile[] = [
  // The full SFU catalog (all 85 departments) supersedes the CMPT/MACM/MATH/STAT subset in sfu-outlines/,
  // which stays shipped for the prerequisite agreement measure and as a small test fixture.
  { source: 'sfu-outlines', file: 'sfu-catalog-2026/outlines-all.json', full: true },
  { source: 'sfu-sections', file: 'sfu-catalog-2026/sections-2025-fall-all.json', full: true },
  { source: 'sfu-sections', file: 'sfu-catalog-2026/sections-2026-spring-all.json', full: true },
  { source: 'sfu-sections', file: 'sfu-catalog-2026/sections-2026-fall-all.json', full: true },
  { source: 'sfu-outlines', file: 'sfu-outlines/outlines.json', core: true },
  { source: 'sfu-sections', file: 'sfu-outlines/sections-2025-fall.json', core: true },
  { source: 'sfu-sections', file: 'sfu-outlines/sections-2026-spring.json', core: true },
  // Grades early, the 2021S–2025W file being the largest of the sample: it loads beside other sources' files. In the
  // full sample it supersedes the per-subject files of the sessions it covers (as the all-department SFU files supersede
  // the subsets): loaded before it, their rows would only be rewritten or retired by it.
  { source: 'ubc-grades', file: 'ubc-grades/pair-reports/UBC-2015W-CPSC.csv' },
  ...[
    'tableau-dashboard-v2/UBCO-2024W-COSC.csv',
    'tableau-dashboard/UBCV-2021W-CPSC.csv',
    ...['APSC', 'BIOL', 'CHEM', 'CPSC', 'DSCI', 'ECON', 'ENGL', 'MATH', 'PHYS', 'PSYC', 'STAT'].flatMap((subject) => [
      `tableau-dashboard-v2/UBCV-2024W-${subject}.csv`,
      `tableau-dashboard-v2/UBCV-2025W-${subject}.csv`,
    ]),
  ].map((file) => ({ source: 'ubc-grades', file: `ubc-grades/${file}`, core: true as const })),
  { source: 'ubc-grades', file: 'ubc-grades-2021-2025/ubc-grades-v2-2021S-2025W.csv', full: true },
  { source: 'ubc-catalog', file: 'ubc-catalog/courses.json' },
  { source: 'ubc-calendar', file: 'ubc-catalog-2026/courses.json', full: true },
  { source: 'ubc-calendar', file: 'ubco-catalog-2024/ubc_okanagan_courses.csv', full: true },
  { source: 'uvic-requisites', file: 'uvic-catalog-2024/courses-prereqs.json', full: true },
  { source: 'uvic-kuali', file: 'uvic-catalog-2024/kuali-course-catalog.json', full: true },
  { source: 'langara-catalogue', file: 'langara/catalogue.json' },
  { source: 'langara-attributes', file: 'langara/attributes.json' },
  { source: 'langara-prereqs', file: 'langara-prereqs/prerequisites-text.csv' },
  { source: 'langara-schedule', file: 'langara/semester-202310.json' },
  { source: 'langara-schedule', file: 'langara/semester-202330.json' },
  { source: TRANSFER_SOURCE, file: 'bctransferguide/langara-transfers-2023-04.json' },
  { source: TRANSFER_SOURCE, file: 'bctransferguide/alexander-college-transfers-2025-06.json' },
  // After April: a later snapshot of the same sender, so agreements that changed in between become history.
  { source: TRANSFER_SOURCE, file: 'bctransferguide/langara-transfers-2023-10.json' },
];

/**
 * Which sample to load: `full` (every shipped file; `npm start` and deploys) or `core` (the subsets the
 * full SFU files supersede, and none of the large all-department files; the test suite's shared
 * table, so every test run does not pay for 100k records it never reads).
 */
export type SampleSet = 'full' | 'core' | 'common';

/** `common`: the files both samples share (what `npm start` serves with before the large ones land). */
export function sampleFiles(set: SampleSet = 'full'): SampleFile[] {
  return SAMPLE_CATALOG.filter((entry) => (set === 'full' ? !entry.core : set === 'core' ? !entry.full : !entry.core && !entry.full));
}
