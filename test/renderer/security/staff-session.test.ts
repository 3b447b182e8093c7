import { describe, expect, it } from 'vitest';
import { SCREENS } from '@src/renderer/src/state/navigation';
import { isSwitchUserKey, mayOpen, pickByTyping, signsIn } from '@src/renderer/src/security/staff-session';
import type { StaffSession } from '@src/shared/bridge/staff-contract';

const PEOPLE = ['Ana Front', 'Ben Front', 'Maria Manager', 'Mark Evans'];

describe('sign-in type-ahead (issue 28, item 2)', () => {
  it('picks the first person whose name starts with the letters typed, any case', () => {
    expect(pickByTyping(PEOPLE, 'b')).toBe(1);
    expect(pickByTyping(PEOPLE, 'MA')).toBe(2);
    expect(pickByTyping(PEOPLE, 'mark')).toBe(3);
  });

  it('falls back to a later name (a surname), and picks no one for letters nobody’s name has', () => {
    expect(pickByTyping(PEOPLE, 'ev')).toBe(3);
    expect(pickByTyping(PEOPLE, 'zz')).toBe(-1);
    expect(pickByTyping(PEOPLE, '  ')).toBe(-1);
  });
});

describe('role hiding (issue 28, item 5)', () => {
  it('a front-desk person opens the day’s screens but not Settings or the Audit log; a manager and a desk without staff open all', () => {
    const frontDesk = SCREENS.filter(({ screen }) => mayOpen('front_desk', screen)).map(({ screen }) => screen);
    expect(frontDesk).toEqual(['today', 'intake', 'eligibility', 'discovery', 'sync', 'schedule', 'end_of_day']);
    expect(SCREENS.every(({ screen }) => mayOpen('manager', screen) && mayOpen(null, screen))).toBe(true);
  });

  it('a desk signs people in once it has staff or asks for its first manager, not before', () => {
    const session = (over: Partial<StaffSession>): StaffSession => ({ setup_needed: false, lock_pin_set: false, signed_in: null, must_choose_pin: false, people: [], ...over });
    expect(signsIn(session({}))).toBe(false);
    expect(signsIn(null)).toBe(false);
    expect(signsIn(session({ setup_needed: true }))).toBe(true);
    expect(signsIn(session({ people: [{ id: 'stf_01JDZ8Q0000000000000000000', name: 'Ana' }] }))).toBe(true);
  });
});

describe('switch user shortcut (issue 28, item 3)', () => {
  const key = (over: Partial<KeyboardEvent>) => ({ ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, code: 'KeyL', ...over }) as KeyboardEvent;
  it('is Ctrl+Shift+L (⌘⇧L), never an Alt+digit screen key', () => {
    expect(isSwitchUserKey(key({ ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isSwitchUserKey(key({ metaKey: true, shiftKey: true }))).toBe(true);
    expect(isSwitchUserKey(key({ ctrlKey: true }))).toBe(false);
    expect(isSwitchUserKey(key({ altKey: true, code: 'Digit6' }))).toBe(false);
  });
});
