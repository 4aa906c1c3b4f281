/**
 * Institutions we know by slug. `bctgCode` is the BC Transfer Guide's code, accepted as an alias on
 * input; aliases are matched case-insensitively.
 */
export interface Institution {
  id: string;
  name: string;
  bctgCode?: string;
  aliases: string[];
  /** IANA zone whose calendar dates the institution's rules use; BC's when absent. */
  timeZone?: string;
  /** How its transfer credit compares with BC's common scale (a one-term course = 3); the common scale when absent. */
  creditScale?: CreditScale;
}

export interface CreditScale {
  /** Multiply the institution's own credit by this for BC's common scale. */
  factor: number;
  /** What the institution calls its credit. */
  unit: string;
  /** The rule in words. */
  rule: string;
}

/** BC's common scale: a one-term course is 3 credits. */
const COMMON_SCALE: CreditScale = { factor: 1, unit: 'credits', rule: 'credits as awarded: a one-term course is 3 credits' };

// Every institution of the BC Transfer Guide we know by code. Slugs of institutions added after data
// named them are their codes in lower case, which is what that data was stored under.
export const INSTITUTIONS: Institution[] = [
  { id: 'sfu', name: 'Simon Fraser University', bctgCode: 'SFU', aliases: ['simon fraser'] },
  { id: 'ubc', name: 'University of British Columbia - Vancouver', bctgCode: 'UBCV', aliases: ['ubcv', 'ubc vancouver', 'university of british columbia', 'ubc-v'] },
  { id: 'ubco', name: 'University of British Columbia - Okanagan', bctgCode: 'UBCO', aliases: ['ubc okanagan', 'ubc-o'] },
  { id: 'langara', name: 'Langara College', bctgCode: 'LANG', aliases: ['lang'] },
  { id: 'uvic', name: 'University of Victoria', bctgCode: 'UVIC', aliases: ['victoria'], creditScale: { factor: 2, unit: 'units', rule: 'UVic awards units: a one-term course is 1.5 units, so units × 2' } },
  { id: 'alexander', name: 'Alexander College', bctgCode: 'ALEX', aliases: ['alex'] },
  { id: 'douglas', name: 'Douglas College', bctgCode: 'DOUG', aliases: ['doug'] },
  { id: 'capilano', name: 'Capilano University', bctgCode: 'CAPU', aliases: ['capu'] },
  { id: 'kpu', name: 'Kwantlen Polytechnic University', bctgCode: 'KPU', aliases: ['kwantlen'] },
  { id: 'tru', name: 'Thompson Rivers University', bctgCode: 'TRU', aliases: [] },
  { id: 'unbc', name: 'University of Northern BC', bctgCode: 'UNBC', aliases: ['university of northern british columbia'] },
  { id: 'viu', name: 'Vancouver Island University', bctgCode: 'VIU', aliases: [] },
  { id: 'ufv', name: 'University of the Fraser Valley', bctgCode: 'UFV', aliases: [] },
  { id: 'twu', name: 'Trinity Western University', bctgCode: 'TWU', aliases: [] },
  { id: 'ucw', name: 'University Canada West', bctgCode: 'UCW', aliases: [] },
  { id: 'emily-carr', name: 'Emily Carr University of Art & Design', bctgCode: 'EC', aliases: ['ecuad', 'emily carr'] },
  { id: 'athabasca', name: 'Athabasca University', bctgCode: 'AU', aliases: [], timeZone: 'America/Edmonton' },
  { id: 'fdu', name: 'Fairleigh Dickinson University', bctgCode: 'FDU', aliases: [] },
  { id: 'yorkville', name: 'Yorkville University', bctgCode: 'YVU', aliases: [] },
  { id: 'bcit', name: 'British Columbia Institute of Technology', bctgCode: 'BCIT', aliases: [] },
  { id: 'camosun', name: 'Camosun College', bctgCode: 'CAMO', aliases: [] },
  { id: 'vcc', name: 'Vancouver Community College', bctgCode: 'VCC', aliases: [] },
  { id: 'okanagan', name: 'Okanagan College', bctgCode: 'OC', aliases: [] },
  { id: 'selkirk', name: 'Selkirk College', bctgCode: 'SELK', aliases: [] },
  { id: 'coquitlam', name: 'Coquitlam College', bctgCode: 'COQU', aliases: [] },
  { id: 'columbia', name: 'Columbia College', bctgCode: 'COLU', aliases: [] },
  { id: 'cotr', name: 'College of the Rockies', bctgCode: 'COTR', aliases: [] },
  { id: 'cnc', name: 'College of New Caledonia', bctgCode: 'CNC', aliases: [] },
  { id: 'nic', name: 'North Island College', bctgCode: 'NIC', aliases: [] },
  { id: 'cmtn', name: 'Coast Mountain College', bctgCode: 'CMTN', aliases: ['northwest community college'] },
  { id: 'nlc', name: 'Northern Lights College', bctgCode: 'NLC', aliases: [] },
  { id: 'nvit', name: 'Nicola Valley Institute of Technology', bctgCode: 'NVIT', aliases: [] },
  { id: 'jibc', name: 'Justice Institute of British Columbia', bctgCode: 'JIBC', aliases: [] },
  { id: 'fic', name: 'Fraser International College', bctgCode: 'FIC', aliases: [] },
  { id: 'yuko', name: 'Yukon University', bctgCode: 'YUKO', aliases: ['yukon college'] },
  { id: 'rru', name: 'Royal Roads University', bctgCode: 'RRU', aliases: [] },
  { id: 'qu', name: 'Quest University Canada', bctgCode: 'QU', aliases: ['quest university'] },
  { id: 'lcv', name: 'LaSalle College Vancouver', bctgCode: 'LCV', aliases: [] },
  { id: 'asm', name: 'Acsenda School of Management', bctgCode: 'ASM', aliases: [] },
];

/** A name as people type it: case, "&"/"and", punctuation and spacing do not matter ("Langara College", "langara  college."). */
export function nameKey(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/^the /, '')
    .trim();
}

const byAlias = new Map<string, Institution>();
for (const institution of INSTITUTIONS) {
  for (const alias of [institution.id, institution.bctgCode, ...institution.aliases]) {
    if (alias) byAlias.set(alias.toLowerCase(), institution);
  }
}
const byName = new Map<string, Institution>();
for (const institution of INSTITUTIONS) {
  for (const alias of [institution.name, ...institution.aliases, institution.id, institution.bctgCode ?? '']) if (alias) byName.set(nameKey(alias), institution);
}

/** The institution for a slug, BC Transfer Guide code, alias or full name ("Langara College"); undefined when unknown. */
export function findInstitution(input: string): Institution | undefined {
  return byAlias.get(input.trim().toLowerCase().replace(/\s+/g, ' ')) ?? byName.get(nameKey(input));
}

const scales = new Map<string, CreditScale>();

/** How an institution's transfer credit compares with BC's common scale. */
export function creditScaleOf(institution: string): CreditScale {
  let scale = scales.get(institution);
  if (!scale) scales.set(institution, (scale = findInstitution(institution)?.creditScale ?? COMMON_SCALE));
  return scale;
}

/** Slug for any known alias; unknown inputs are slugified so new institutions from data still work. */
export function institutionId(input: string): string {
  return findInstitution(input)?.id ?? input.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
