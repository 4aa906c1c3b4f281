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
}

export const INSTITUTIONS: Institution[] = [
  { id: 'sfu', name: 'Simon Fraser University', bctgCode: 'SFU', aliases: ['simon fraser'] },
  { id: 'ubc', name: 'University of British Columbia - Vancouver', bctgCode: 'UBCV', aliases: ['ubcv', 'ubc vancouver'] },
  { id: 'ubco', name: 'University of British Columbia - Okanagan', bctgCode: 'UBCO', aliases: ['ubc okanagan'] },
  { id: 'langara', name: 'Langara College', bctgCode: 'LANG', aliases: ['lang'] },
  { id: 'uvic', name: 'University of Victoria', bctgCode: 'UVIC', aliases: ['victoria'] },
  { id: 'alexander', name: 'Alexander College', bctgCode: 'ALEX', aliases: ['alex'] },
  { id: 'douglas', name: 'Douglas College', bctgCode: 'DOUG', aliases: ['doug'] },
  { id: 'capilano', name: 'Capilano University', bctgCode: 'CAPU', aliases: ['capu'] },
  { id: 'kpu', name: 'Kwantlen Polytechnic University', bctgCode: 'KPU', aliases: ['kwantlen'] },
  { id: 'tru', name: 'Thompson Rivers University', bctgCode: 'TRU', aliases: [] },
  { id: 'unbc', name: 'University of Northern BC', bctgCode: 'UNBC', aliases: [] },
  { id: 'viu', name: 'Vancouver Island University', bctgCode: 'VIU', aliases: [] },
  { id: 'ufv', name: 'University of the Fraser Valley', bctgCode: 'UFV', aliases: [] },
  { id: 'twu', name: 'Trinity Western University', bctgCode: 'TWU', aliases: [] },
  { id: 'ucw', name: 'University Canada West', bctgCode: 'UCW', aliases: [] },
  { id: 'emily-carr', name: 'Emily Carr University of Art & Design', bctgCode: 'EC', aliases: ['ecuad'] },
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
];

const byAlias = new Map<string, Institution>();
for (const institution of INSTITUTIONS) {
  for (const alias of [institution.id, institution.bctgCode, ...institution.aliases]) {
    if (alias) byAlias.set(alias.toLowerCase(), institution);
  }
}

/** The institution for a slug, BC Transfer Guide code or alias; undefined when unknown. */
export function findInstitution(input: string): Institution | undefined {
  return byAlias.get(input.trim().toLowerCase().replace(/\s+/g, ' '));
}

/** Slug for any known alias; unknown inputs are slugified so new institutions from data still work. */
export function institutionId(input: string): string {
  return findInstitution(input)?.id ?? input.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
