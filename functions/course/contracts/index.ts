import type { AnyToolContract } from '../../mcp/tools/define-tool.js';
import { equivalentElsewhereContract } from './equivalent-elsewhere.js';
import { getContract } from './get.js';
import { gradesContract } from './grades.js';
import { institutionsContract } from './institutions.js';
import { instructorContract } from './instructor.js';
import { materialsContract } from './materials.js';
import { outlineContract } from './outline.js';
import { prereqsContract } from './prereqs.js';
import { requisitesContract } from './requisites.js';
import { scheduleContract } from './schedule.js';
import { searchContract } from './search.js';
import { sectionGetContract } from './section-get.js';
import { sectionListContract } from './section-list.js';
import { similarContract } from './similar.js';
import { timetableContract } from './timetable.js';

/** The domain's tool contracts, in the order its tools are listed. */
export const courseContracts: AnyToolContract[] = [
  searchContract,
  getContract,
  prereqsContract,
  requisitesContract,
  outlineContract,
  instructorContract,
  scheduleContract,
  sectionListContract,
  sectionGetContract,
  timetableContract,
  similarContract,
  institutionsContract,
  equivalentElsewhereContract,
  materialsContract,
  gradesContract,
];
