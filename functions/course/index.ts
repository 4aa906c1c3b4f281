import type { AnyToolDefinition } from '../mcp/tools/define-tool.js';
import { equivalentElsewhereTool } from './tools/equivalent-elsewhere.js';
import { getTool } from './tools/get.js';
import { gradesTool } from './tools/grades.js';
import { institutionsTool } from './tools/institutions.js';
import { instructorTool } from './tools/instructor.js';
import { materialsTool } from './tools/materials.js';
import { outlineTool } from './tools/outline.js';
import { prereqsTool } from './tools/prereqs.js';
import { requisitesTool } from './tools/requisites.js';
import { scheduleTool } from './tools/schedule.js';
import { searchTool } from './tools/search.js';
import { sectionGetTool } from './tools/section-get.js';
import { sectionListTool } from './tools/section-list.js';
import { similarTool } from './tools/similar.js';
import { timetableTool } from './tools/timetable.js';

export const courseTools: AnyToolDefinition[] = [
  searchTool,
  getTool,
  prereqsTool,
  requisitesTool,
  outlineTool,
  instructorTool,
  scheduleTool,
  sectionListTool,
  sectionGetTool,
  timetableTool,
  similarTool,
  institutionsTool,
  equivalentElsewhereTool,
  materialsTool,
  gradesTool,
];
