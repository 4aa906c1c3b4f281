import type { SourceAdapter } from '../../catalog/catalog-model.js';
import { langaraAttributesAdapter } from './langara-attributes.js';
import { langaraCatalogueAdapter } from './langara-catalogue.js';
import { langaraPrereqsAdapter } from './langara-prereqs.js';
import { langaraScheduleAdapter } from './langara-schedule.js';
import { sfuOutlinesAdapter } from './sfu-outlines.js';
import { sfuSectionsAdapter } from './sfu-sections.js';
import { ubcCalendarAdapter } from './ubc-calendar.js';
import { ubcCatalogAdapter } from './ubc-catalog.js';
import { ubcGradesAdapter } from './ubc-grades.js';
import { uvicKualiAdapter, uvicRequisitesAdapter } from './uvic.js';

export const ADAPTERS: SourceAdapter[] = [
  sfuOutlinesAdapter,
  sfuSectionsAdapter,
  ubcCatalogAdapter,
  ubcCalendarAdapter,
  ubcGradesAdapter,
  langaraCatalogueAdapter,
  langaraAttributesAdapter,
  langaraScheduleAdapter,
  langaraPrereqsAdapter,
  uvicRequisitesAdapter,
  uvicKualiAdapter,
];

/** The adapter registered under `name` (as given to `--source`); undefined when there is none. */
export function findAdapter(name: string): SourceAdapter | undefined {
  const wanted = name.trim().toLowerCase();
  return ADAPTERS.find((adapter) => adapter.name === wanted);
}
