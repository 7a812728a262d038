import { describe, expect, it } from 'vitest';
import { DATE_MAX, DATE_MIN, boundedDate, parseBoundedDate } from './dates.ts';

describe('dates from year 1 to 9999', () => {
  it('reads a whole day as its UTC midnight', () => {
    expect(parseBoundedDate('2024-02-29')).toEqual({ date: new Date('2024-02-29T00:00:00.000Z'), wholeDay: true });
    expect(parseBoundedDate(' 0001-01-01 ')).toEqual({ date: DATE_MIN, wholeDay: true });
    expect(parseBoundedDate('9999-12-31')).toEqual({ date: new Date('9999-12-31T00:00:00.000Z'), wholeDay: true });
  });

  it('reads an ISO date-time with a time zone as that instant', () => {
    expect(parseBoundedDate('2025-01-31T12:00:00Z')).toEqual({
      date: new Date('2025-01-31T12:00:00.000Z'),
      wholeDay: false,
    });
    expect(parseBoundedDate('2025-01-31T12:00+02:00')).toMatchObject({ date: new Date('2025-01-31T10:00:00.000Z') });
    expect(parseBoundedDate('9999-12-31T23:59:59.999Z')).toEqual({ date: DATE_MAX, wholeDay: false });
    expect(parseBoundedDate('0001-01-01T00:00:00.000Z')).toEqual({ date: DATE_MIN, wholeDay: false });
  });

  it('says out-of-range for years before 1 or after 9999, however they are written', () => {
    for (const value of [
      '0000-01-01',
      '0000-12-31T23:59:59Z',
      '10000-01-01',
      '+010000-01-01',
      '-000001-01-01',
      '+275760-09-13T00:00:00.000Z',
      '+275760-09-14T00:00:00.000Z', // past what JavaScript dates hold
      '-271821-04-20T00:00:00.000Z',
      '0001-01-01T00:30:00+01:00', // year 0 once in UTC
      '9999-12-31T23:30:00-01:00', // year 10000 once in UTC
    ])
      expect(parseBoundedDate(value), value).toBe('out-of-range');
  });

  it('says invalid for anything else', () => {
    for (const value of [
      '',
      'yesterday',
      '1',
      '2024',
      '2024-1-5',
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-05-01T25:00:00Z',
      '2024-05-01T12:60:00Z',
      '2024-05-01T12:00:00', // no time zone: the server's own would be guessed
      '2024-05-01 12:00:00Z',
      'Tue Mar 05 2024',
      '2024-05-01T12:00:00Zjunk',
      '\u0000',
      '9'.repeat(400),
    ])
      expect(parseBoundedDate(value), value).toBe('invalid');
  });

  it('gives a zod string field that lets blanks through and says which rule failed', () => {
    const field = boundedDate({ invalid: 'when: not a date', outOfRange: 'when: out of range' });
    expect(field.parse('2024-05-01')).toBe('2024-05-01');
    expect(field.parse('')).toBe('');
    expect(field.safeParse('10000-01-01').error?.issues[0]?.message).toBe('when: out of range');
    expect(field.safeParse('soon').error?.issues[0]?.message).toBe('when: not a date');
    expect(field.safeParse('x'.repeat(41)).error?.issues[0]?.message).toBe('when: not a date');
    expect(boundedDate().safeParse('0000-01-01').error?.issues[0]?.message).toBe(
      'Date must be between years 1 and 9999',
    );
  });
});
