import { describe, expect, it } from 'vitest';
import { entityError, SANDBOX_AAA_CODES, SCENARIO_PREFIXES, scenarioFor } from '@src/main/sandbox/scenarios';
import { AAA_REASONS, ClearinghouseEntityError } from '@src/shared/contract';

describe('member-id scenarios', () => {
  it('ordinary member ids are active coverage', () => {
    for (const id of ['W284619375', '918273645', 'XGH123456789', 'AAA1', 'AA72', 'PEND', 'INACTIV']) expect(scenarioFor(id)).toEqual({ kind: 'active' });
  });

  it('reserved prefixes pick their outcome, ignoring case', () => {
    expect(scenarioFor('INACTIVE-1')).toEqual({ kind: 'inactive' });
    expect(scenarioFor('inactive')).toEqual({ kind: 'inactive' });
    expect(scenarioFor('CHERROR9')).toEqual({ kind: 'clearinghouse_error' });
    expect(scenarioFor('pending-42')).toEqual({ kind: 'long_pending' });
    for (const code of SANDBOX_AAA_CODES) expect(scenarioFor(`Aaa${code}0001`)).toEqual({ kind: 'entity_error', code });
  });

  it('a card without a member id is AAA 72', () => {
    expect(scenarioFor(undefined)).toEqual({ kind: 'entity_error', code: '72' });
    expect(scenarioFor(null)).toEqual({ kind: 'entity_error', code: '72' });
    expect(scenarioFor('')).toEqual({ kind: 'entity_error', code: '72' });
  });

  it('covers the rejections docs/sandbox.md names, each once', () => {
    expect([...SANDBOX_AAA_CODES]).toEqual(['15', '42', '43', '72', '73', '75', '76', '79']);
    const prefixes = SCENARIO_PREFIXES.map((s) => s.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    // No prefix hides another: each reaches its own scenario.
    for (const { prefix, scenario } of SCENARIO_PREFIXES) expect(scenarioFor(`${prefix}X`)).toEqual(scenario);
  });

  it('entity errors are complete AAA segments', () => {
    for (const code of SANDBOX_AAA_CODES) {
      const error = ClearinghouseEntityError.parse(entityError(code));
      expect(error).toMatchObject({ code, reason: AAA_REASONS[code].reason, field: AAA_REASONS[code].field });
      expect(error.description).toMatch(/^[A-Z]/);
    }
    expect(entityError('42').follow_up_action).toBe('resubmission_allowed');
    expect(entityError('72').follow_up_action).toBe('please_correct_and_resubmit');
  });
});
