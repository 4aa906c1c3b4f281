import type { SourceAdapter } from '../shared/catalog/catalog-model.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { ingestTransferRules, TRANSFER_SOURCE } from '../transfer/transfer-ingest.js';
import { ADAPTERS } from './adapters/index.js';
import { ingestSource, type IngestionRun } from './ingest-source.js';
import type { RunOptions } from '../shared/ingestion/ingestion-run.js';
import { materialsManifestAdapter } from './materials-manifest.js';

/** Every source `npm run ingest -- --source <name>` and the scheduled ingestion functions know. */
export const SOURCES: SourceAdapter[] = [...ADAPTERS, materialsManifestAdapter];

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

/** The sample catalog the project ships (data/sample/, each folder with its SOURCE.md), in load order. */
export const SAMPLE_CATALOG: { source: string; file: string }[] = [
  { source: 'sfu-outlines', file: 'sfu-outlines/outlines.json' },
  { source: 'sfu-sections', file: 'sfu-outlines/sections-2025-fall.json' },
  { source: 'sfu-sections', file: 'sfu-outlines/sections-2026-spring.json' },
  { source: 'ubc-catalog', file: 'ubc-catalog/courses.json' },
  { source: 'langara-catalogue', file: 'langara/catalogue.json' },
  { source: 'langara-attributes', file: 'langara/attributes.json' },
  { source: 'langara-prereqs', file: 'langara-prereqs/prerequisites-text.csv' },
  { source: 'langara-schedule', file: 'langara/semester-202310.json' },
  { source: 'langara-schedule', file: 'langara/semester-202330.json' },
  ...[
    'tableau-dashboard-v2/UBCO-2024W-COSC.csv',
    'tableau-dashboard/UBCV-2021W-CPSC.csv',
    'pair-reports/UBC-2015W-CPSC.csv',
    ...['APSC', 'BIOL', 'CHEM', 'CPSC', 'DSCI', 'ECON', 'ENGL', 'MATH', 'PHYS', 'PSYC', 'STAT'].flatMap((subject) => [
      `tableau-dashboard-v2/UBCV-2024W-${subject}.csv`,
      `tableau-dashboard-v2/UBCV-2025W-${subject}.csv`,
    ]),
  ].map((file) => ({ source: 'ubc-grades', file: `ubc-grades/${file}` })),
  { source: TRANSFER_SOURCE, file: 'bctransferguide/langara-transfers-2023-04.json' },
  { source: TRANSFER_SOURCE, file: 'bctransferguide/alexander-college-transfers-2025-06.json' },
  // After April: a later snapshot of the same sender, so agreements that changed in between become history.
  { source: TRANSFER_SOURCE, file: 'bctransferguide/langara-transfers-2023-10.json' },
];
