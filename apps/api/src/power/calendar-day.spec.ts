import { calendarDay } from './calendar-day';

describe('calendarDay', () => {
  it('names the day of an instant in the given time zone', () => {
    const at = new Date('2026-03-01T16:30:00Z');
    expect(calendarDay(at, 'UTC')).toBe('2026-03-01');
    expect(calendarDay(at, 'Asia/Shanghai')).toBe('2026-03-02');
    expect(calendarDay(at, 'America/Los_Angeles')).toBe('2026-03-01');
  });

  it('pads months and days', () => {
    expect(calendarDay(new Date('2026-01-05T00:00:00Z'), 'UTC')).toBe('2026-01-05');
  });
});
