import { describe, expect, it } from 'vitest';
import { effectiveDate, effectiveDateInput, institutionTimeZone } from '../../functions/catalog/effective-date.js';

const input = effectiveDateInput('When');
const VANCOUVER = 'America/Vancouver';
const NOW = new Date('2026-11-24T06:30:00Z'); // 22:30 on the 23rd in Vancouver

describe('effective dates (RFC 3339 date or date-time)', () => {
  it.each([
    ['2023-03-01', '2023-03-01'],
    ['2023-03-01T00:00:00Z', '2023-02-28'],
    ['2023-03-01T08:00:00Z', '2023-03-01'],
    ['2023-03-01T00:00:00-08:00', '2023-03-01'],
    ['2023-03-01T23:59:59.999-08:00', '2023-03-01'],
    ['2023-03-01T12:00:00+14:00', '2023-02-28'],
    ['2023-07-01T06:59:59Z', '2023-06-30'], // summer time: UTC-07:00
    ['2023-07-01T07:00:00Z', '2023-07-01'],
    ['2023-03-01t16:00:00z', '2023-03-01'],
    ['2023-03-01 16:00:00Z', '2023-03-01'],
    ['2016-12-31T23:59:60Z', '2016-12-31'],
  ])('%s is %s in Vancouver', (value, expected) => {
    expect(input.safeParse(value).success).toBe(true);
    expect(effectiveDate(value, NOW, VANCOUVER)).toBe(expected);
  });

  it.each(['2023-02-30', '2023-13-01', '2023-03-01T00:00:00', '2023-03-01T24:00:00Z', '2023-03-01T10:00:00+25:00', '01/03/2023', 'today', '2023-03-01T10:00Z'])(
    'refuses %s',
    (value) => {
      expect(input.safeParse(value).success).toBe(false);
    },
  );

  it('defaults to today where the institution is, not in UTC', () => {
    expect(effectiveDate(undefined, NOW, VANCOUVER)).toBe('2026-11-23');
    expect(effectiveDate(undefined, NOW, 'UTC')).toBe('2026-11-24');
  });

  it('knows BC institutions by default and names other zones', () => {
    expect(institutionTimeZone('sfu')).toBe(VANCOUVER);
    expect(institutionTimeZone('UBCV')).toBe(VANCOUVER);
    expect(institutionTimeZone('some-new-college')).toBe(VANCOUVER);
    expect(institutionTimeZone('athabasca')).toBe('America/Edmonton');
  });
});
