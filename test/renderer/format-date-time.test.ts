import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@src/renderer/src/format';

/** The audit log's times (issue 26, Low): always with their date, today's too. */
describe('formatDateTime', () => {
  it('says the day and year beside the time, whatever day it is', () => {
    const now = new Date();
    const text = formatDateTime(now.toISOString());
    expect(text).toContain(now.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }));
    expect(text).toMatch(/\d{1,2}:\d{2} (AM|PM)$/);
    expect(formatDateTime('not a time')).toBe('not a time');
  });
});
