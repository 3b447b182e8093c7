import { describe, expect, it } from 'vitest';
import { addBusinessDays, businessDaysBetween, federalHolidays, gfeDeadline, isBusinessDay } from '@src/shared/gfe-deadline';

/**
 * The Good Faith Estimate's deadline (issue 30, item 5; 45 CFR 149.610(b)(1)(vi)), on the
 * rule's own cases: scheduled at least 3 business days ahead, 1 business day after
 * scheduling; at least 10, 3 business days; on request, 3 business days after the request.
 */
describe('the GFE deadline', () => {
  it('scheduled Monday for Thursday (3 business days ahead): due Tuesday, 1 business day after scheduling', () => {
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-03-05' })).toEqual({ business_days_ahead: 3, rule: 'scheduled_3_to_9', due_on: '2026-03-03' });
  });

  it('scheduled Monday for the Friday after next (9 business days ahead): still 1 business day', () => {
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-03-13' })).toEqual({ business_days_ahead: 9, rule: 'scheduled_3_to_9', due_on: '2026-03-03' });
  });

  it('scheduled 10 or more business days ahead: due 3 business days after scheduling', () => {
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-03-16' })).toEqual({ business_days_ahead: 10, rule: 'scheduled_10_or_more', due_on: '2026-03-05' });
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-06-01' }).due_on).toBe('2026-03-05');
  });

  it('fewer than 3 business days ahead: no GFE is required unless the patient asks', () => {
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-03-04' })).toEqual({ business_days_ahead: 2, rule: 'not_required', due_on: null });
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-03-04', requested_on: '2026-03-02' })).toEqual({ business_days_ahead: 2, rule: 'requested', due_on: '2026-03-05' });
  });

  it('on request: 3 business days after the request, the earlier deadline binding when the visit is scheduled too', () => {
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-03-30', requested_on: '2026-03-02' }).due_on).toBe('2026-03-05');
    expect(gfeDeadline({ scheduled_on: '2026-03-02', service_on: '2026-03-05', requested_on: '2026-03-02' })).toMatchObject({ rule: 'scheduled_3_to_9', due_on: '2026-03-03' });
  });

  it('weekends are not business days: scheduled on a Friday, due the Monday; on a Saturday, the Monday too', () => {
    expect(gfeDeadline({ scheduled_on: '2026-03-06', service_on: '2026-03-11' })).toEqual({ business_days_ahead: 3, rule: 'scheduled_3_to_9', due_on: '2026-03-09' });
    expect(gfeDeadline({ scheduled_on: '2026-03-07', service_on: '2026-03-11' })).toEqual({ business_days_ahead: 3, rule: 'scheduled_3_to_9', due_on: '2026-03-09' });
    // Friday to the next Tuesday is 2 business days: not required.
    expect(gfeDeadline({ scheduled_on: '2026-03-06', service_on: '2026-03-10' }).rule).toBe('not_required');
  });

  it('federal holidays are not business days, as observed', () => {
    // Thanksgiving 2026 is Thursday November 26: scheduled Wednesday, due Friday the 27th.
    expect(gfeDeadline({ scheduled_on: '2026-11-25', service_on: '2026-12-01' })).toEqual({ business_days_ahead: 3, rule: 'scheduled_3_to_9', due_on: '2026-11-27' });
    // Independence Day 2026 is a Saturday, observed Friday July 3.
    expect(isBusinessDay('2026-07-03')).toBe(false);
    expect(addBusinessDays('2026-07-02', 1)).toBe('2026-07-06');
    // Christmas 2027 is a Saturday (observed Friday the 24th); New Year's Day 2028 too (observed Friday December 31, 2027).
    expect(isBusinessDay('2027-12-24')).toBe(false);
    expect(isBusinessDay('2027-12-31')).toBe(false);
    // Juneteenth 2027 is a Saturday: Friday June 18 is off.
    expect(isBusinessDay('2027-06-18')).toBe(false);
    // Memorial Day 2026: the last Monday of May, the 25th; Labor Day: the first Monday of September, the 7th.
    expect([...federalHolidays(2026)].map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10)).sort()).toEqual([
      '2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-07-03', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25',
    ]);
    // Christmas week with a holiday: scheduled Wednesday December 23, 2026, 3 business days are the 24th, 28th and 29th.
    expect(addBusinessDays('2026-12-23', 3)).toBe('2026-12-29');
    expect(businessDaysBetween('2026-12-23', '2026-12-29')).toBe(3);
  });

  it('refuses what is not a calendar date', () => {
    expect(() => gfeDeadline({ scheduled_on: '2026-02-30', service_on: '2026-03-05' })).toThrow(/2026-02-30/);
  });
});
