import { describe, expect, it } from 'vitest';
import { AAA_REASONS, FOLLOW_UP_ACTIONS, type ClearinghouseEntityError } from '@src/shared/contract';
import { AAA_FIXES, FOLLOW_UP_WORDS, explainEntityError, explainFailure } from '@src/renderer/src/eligibility/aaa-fixes';

function aaa(code: string, partial: Partial<ClearinghouseEntityError> = {}): ClearinghouseEntityError {
  return { code, reason: 'x', description: 'Payer text', follow_up_action: 'please_correct_and_resubmit', field: null, ...partial };
}

describe('AAA fix table', () => {
  it('has a problem and a fix in plain words for every code the contract knows, and nothing else', () => {
    expect(Object.keys(AAA_FIXES).sort()).toEqual(Object.keys(AAA_REASONS).sort());
    for (const [code, { problem, fix }] of Object.entries(AAA_FIXES)) {
      expect(problem, code).toMatch(/^[A-Z].+\.$/);
      expect(fix, code).toMatch(/^[A-Z].+\.$/);
      // Plain words: no snake_case reason names, no X12 jargon.
      expect(`${problem} ${fix}`, code).not.toMatch(/_|AAA|X12|EB\d/);
    }
    expect(Object.keys(FOLLOW_UP_WORDS).sort()).toEqual(Object.values(FOLLOW_UP_ACTIONS).sort());
  });

  it('72: re-read the member id from the card, pointing at the member id', () => {
    const explained = explainEntityError(aaa('72', { field: 'member_id' }));
    expect(explained.fix).toMatch(/re-read the member id from the card/i);
    expect(explained.field).toBe('member_id');
    expect(explained.follow_up).toBe('Correct it, then run the check again.');
  });

  it('takes the field from the contract table when the payer leaves it out', () => {
    expect(explainEntityError(aaa('79')).field).toBe('clearinghouse_entity_id');
    expect(explainEntityError(aaa('43')).field).toBe('provider_id');
    expect(explainEntityError(aaa('42')).field).toBeNull();
  });

  it('falls back to the payer’s description and the follow-up for an unknown code', () => {
    const explained = explainEntityError(aaa('ZZ', { description: 'Something odd', follow_up_action: 'please_wait_30_days_and_resubmit' }));
    expect(explained).toMatchObject({ code: 'ZZ', problem: 'Something odd', fix: 'Wait 30 days, then run the check again.', field: null });
  });

  it('explains a failure with no entity errors by its reason', () => {
    expect(explainFailure({ failure_reason: 'clearinghouse_error' })[0].fix).toMatch(/run the check again in a few minutes/);
    expect(explainFailure({ failure_reason: 'clearinghouse_entity_error' })[0].field).toBe('member_id');
    expect(explainFailure({ failure_reason: 'clearinghouse_entity_error', clearinghouse_entity_errors: [aaa('72'), aaa('73')] }).map((e) => e.code)).toEqual(['72', '73']);
  });
});

describe('a patient’s details refused by the payer (issue 26, item 7) and repeated codes', () => {
  it('58, 65, 71 and 77 send the desk to correct the patient’s details, never to register the patient again', () => {
    for (const code of ['58', '65', '71', '77']) {
      const explained = explainEntityError(aaa(code));
      expect(explained.fix, code).toMatch(/correct the patient’s details/);
      expect(explained.fix, code).not.toMatch(/register/i);
      expect(['first_name', 'last_name', 'date_of_birth'], code).toContain(explained.field);
    }
  });

  it('a code the payer sends at two loops (73 at the subscriber and the dependent) is listed once', () => {
    const twice = explainFailure({ failure_reason: 'clearinghouse_entity_error', clearinghouse_entity_errors: [aaa('73', { field: 'member_name' }), aaa('73', { field: 'member_name' }), aaa('72', { field: 'member_id' })] });
    expect(twice.map((e) => e.code)).toEqual(['73', '72']);
  });
});
