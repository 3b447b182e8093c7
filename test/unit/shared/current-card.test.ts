import { describe, expect, it } from 'vitest';
import { cardVersions, newestCardFirst } from '@src/shared/current-card';

describe("the patient's current card", () => {
  it('is the newest card; every other card is an earlier version, photos or not', () => {
    const cards = [
      { id: 'ic_02', created_at: '2026-11-23T11:00:00.000Z' },
      { id: 'ic_01', created_at: '2026-11-23T10:00:00.000Z' },
      { id: 'ic_03', created_at: '2026-11-23T12:00:00.000Z' },
    ];
    const { current, earlier } = cardVersions(cards);
    expect(current?.id).toBe('ic_03');
    expect([...earlier].sort()).toEqual(['ic_01', 'ic_02']);
  });

  it('breaks a tie in one millisecond by the later id (ids are ULIDs), whatever order the list came in', () => {
    const at = '2026-11-23T10:00:00.000Z';
    expect(cardVersions([{ id: 'ic_0B', created_at: at }, { id: 'ic_0A', created_at: at }]).current?.id).toBe('ic_0B');
    expect(cardVersions([{ id: 'ic_0A', created_at: at }, { id: 'ic_0B', created_at: at }]).current?.id).toBe('ic_0B');
    // created_at decides before the id: a card pulled from another desk may have a later local id but be older.
    expect([{ id: 'ic_9', created_at: '2026-11-23T09:00:00.000Z' }, { id: 'ic_1', created_at: at }].sort(newestCardFirst)[0].id).toBe('ic_1');
  });

  it('is none for a patient without cards', () => {
    expect(cardVersions([])).toEqual({ current: undefined, earlier: new Set() });
  });
});
