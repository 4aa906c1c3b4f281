import { termLabel } from '../../catalog/terms.js';
import { toICalendar, type CalendarMeeting } from './ics.js';
import type { Combination } from './solver.js';
import type { TermSpan } from './term-span.js';
import { isTimed } from './week.js';

const MEETING_NAMES: Record<string, string> = { LEC: 'Lecture', LAB: 'Lab', TUT: 'Tutorial', SEM: 'Seminar', RQL: 'Lab', STD: 'Studio', OLC: 'Online', WWW: 'Online' };

const meetingName = (type: string) => MEETING_NAMES[type] ?? type;

/** One combination as an .ics file: a weekly event per meeting of every section taken. */
export function combinationCalendar(combination: Combination, context: { term: string; span: TermSpan; codes: Map<string, string>; titles: Map<string, string | null>; now: Date }): string {
  const meetings: CalendarMeeting[] = [];
  for (const option of combination.options) {
    const code = context.codes.get(option.course) ?? option.course;
    const title = context.titles.get(option.course);
    for (const { section } of option.placements) {
      section.meetings.forEach((meeting, index) => {
        if (!isTimed(meeting)) return;
        const where = [meeting.room, meeting.campus ?? section.campus].filter((part) => part && part !== 'WWW');
        meetings.push({
          uid: `${context.term}-${option.course}-${section.section}-${index}`.replace(/[^A-Za-z0-9-]+/g, '-') + '@tutor-nexus',
          summary: `${code} ${section.section} ${meetingName(meeting.type)}`,
          ...(where.length ? { location: where.join(', ') } : {}),
          description: [title, section.instructors.length ? `Instructor: ${section.instructors.join(', ')}` : undefined, section.classNumber ? `Class number ${section.classNumber}` : undefined, option.course]
            .filter(Boolean)
            .join('\n'),
          days: meeting.days,
          start: meeting.startTime!,
          end: meeting.endTime!,
          firstDate: meeting.startDate ?? context.span.start,
          lastDate: meeting.endDate ?? context.span.end,
        });
      });
    }
  }
  return toICalendar(meetings, { name: `${termLabel(context.term)} timetable`, now: context.now });
}
