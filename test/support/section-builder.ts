import type { Meeting, Section } from '../../functions/catalog/catalog-model.js';

type Day = Meeting['days'][number];

/** A meeting: `meet('LEC', 'MoWeFr', '11:30', '12:20', { campus: 'Burnaby' })`. */
export function meet(type: string, days: string, startTime: string, endTime: string, extra: Partial<Meeting> = {}): Meeting {
  return { type, days: (days.match(/Mo|Tu|We|Th|Fr|Sa|Su/g) ?? []) as Day[], startTime, endTime, ...extra };
}

/** A meeting with no fixed time (online, arranged). */
export const untimedMeeting = (type: string, extra: Partial<Meeting> = {}): Meeting => ({ type, days: [], ...extra });

/** A section of `institution:code` in `term`, shaped as the adapters store it. */
export function section(ref: string, term: string, name: string, meetings: Meeting[], extra: Partial<Section> = {}): Section {
  const [institution, code] = ref.split(':') as [string, string];
  return {
    kind: 'section',
    institution,
    code,
    provenance: { source: 'test', sourceRecordId: `${term} ${code} ${name}`, ingestedAt: '2026-01-01T00:00:00.000Z' },
    term,
    section: name,
    instructors: [],
    meetings,
    campus: meetings.find((m) => m.campus)?.campus,
    ...extra,
  };
}
