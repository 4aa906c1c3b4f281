import { WEEKDAYS } from '../timetable-state.js';

export interface GridMeeting {
  course: string;
  section: string;
  kind: string;
  day: string;
  start: string;
  end: string;
  campus?: string;
  room?: string;
  startDate?: string;
  endDate?: string;
}

const KIND_NAMES: Record<string, string> = { LEC: 'Lecture', LAB: 'Lab', TUT: 'Tutorial', SEM: 'Seminar', RQL: 'Lab', STD: 'Studio', OLC: 'Online', WWW: 'Online' };
export const kindName = (kind: string) => kind.split('+').map((k) => KIND_NAMES[k] ?? k).join(' and ');
const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
/** Lengths in hours of the ruler; the stylesheet sets how tall an hour is (taller on a phone). */
const hoursTall = (hours: number) => `calc(var(--hour) * ${hours})`;
export const codeOf = (ref: string) => ref.slice(ref.indexOf(':') + 1);

/**
 * The week as columns of days with each class placed by its times. Each day is a heading and a list,
 * so a screen reader hears "Monday, list, CMPT 225 D100 Lecture, 15:30 to 16:20, Burnaby"; the hour
 * ruler is decoration. Weekend columns appear only when a class meets then.
 */
export function WeekGrid({ meetings, courses, label }: { meetings: GridMeeting[]; courses: string[]; label: string }) {
  // A fortnightly series listed date by date shows once, with its number of dates.
  const slots = new Map<string, GridMeeting & { dates: number }>();
  for (const m of meetings) {
    const key = [m.day, m.start, m.end, m.course, m.section, m.kind].join('|');
    const seen = slots.get(key);
    if (seen) seen.dates++;
    else slots.set(key, { ...m, dates: m.startDate && m.startDate === m.endDate ? 1 : 0 });
  }
  const all = [...slots.values()];
  const days = WEEKDAYS.filter(([code], i) => i < 5 || all.some((m) => m.day === code));
  const first = Math.floor(Math.min(8 * 60, ...all.map((m) => minutes(m.start))) / 60);
  const last = Math.ceil(Math.max(17 * 60, ...all.map((m) => minutes(m.end))) / 60);
  const hours = Array.from({ length: last - first }, (_, i) => first + i);
  const height = hoursTall(last - first);
  return (
    <div class="week" role="group" aria-label={label}>
      <div class="week-hours" aria-hidden="true" style={{ height }}>
        {hours.map((hour, i) => (
          <span key={hour} style={{ top: hoursTall(i) }}>
            {String(hour).padStart(2, '0')}
          </span>
        ))}
      </div>
      {days.map(([code, name]) => {
        const today = all.filter((m) => m.day === code).sort((a, b) => a.start.localeCompare(b.start));
        return (
          <div key={code} class="week-day">
            <h3>
              <span aria-hidden="true">{code}</span>
              <span class="visually-hidden">{name}</span>
            </h3>
            <ul style={{ height }} aria-label={today.length ? undefined : `No classes on ${name}`}>
              {today.map((m) => (
                <li
                  key={`${m.course}${m.section}${m.start}`}
                  class={`slot c${courses.indexOf(m.course) % 6}`}
                  style={{ top: hoursTall((minutes(m.start) - first * 60) / 60), height: hoursTall((minutes(m.end) - minutes(m.start)) / 60) }}
                >
                  <strong>{codeOf(m.course)}</strong> <span>{m.section}</span> <span class="visually-hidden">{kindName(m.kind)},</span>
                  <span aria-hidden="true">{m.kind}</span>{' '}
                  <span class="time">
                    {m.start}–{m.end}
                  </span>
                  {m.campus && <span class="visually-hidden">, {m.campus}</span>}
                  {m.dates > 0 && <span class="visually-hidden">, on {m.dates} dates</span>}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
