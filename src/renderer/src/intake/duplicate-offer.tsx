import { useEffect, useRef } from 'react';
import type { DuplicateCandidate } from '../../../shared/bridge/practice-view';
import { formatDob, patientName } from '../format';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

const REASON_WORDS: Record<DuplicateCandidate['reasons'][number], string> = {
  name_and_date_of_birth: 'same name and date of birth',
  member_id: 'same member id on a card',
};

/**
 * "This person may already be registered": the patients the desk found, each with why, to
 * use instead of registering a twin; or the person says it is someone else.
 */
export function DuplicateOffer({ candidates, onUse, onNew }: { candidates: DuplicateCandidate[]; onUse(candidate: DuplicateCandidate): void; onNew(): void }) {
  const section = useRef<HTMLElement>(null);
  // Asked after "Save card" at the foot of the form: bring the question to the person.
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'center' });
    section.current?.querySelector<HTMLButtonElement>('button')?.focus({ preventScroll: true });
  }, []);
  return (
    <section ref={section} className="duplicate-offer" aria-labelledby="duplicate-offer-title">
      <Notice tone="warn" live>
        <strong id="duplicate-offer-title">This person may already be registered.</strong> Use the existing patient so their cards and checks stay together.
      </Notice>
      <ul className="duplicate-offer__list">
        {candidates.map((candidate) => (
          <li key={candidate.patient_id} className="row">
            <span>
              <strong>{patientName(candidate)}</strong>, born {formatDob(candidate.date_of_birth)} ({candidate.reasons.map((r) => REASON_WORDS[r]).join(', ')})
            </span>
            <Button size="small" variant="primary" onClick={() => onUse(candidate)}>
              Use this patient
            </Button>
          </li>
        ))}
      </ul>
      <Button size="small" onClick={onNew}>
        No, register a new patient
      </Button>
    </section>
  );
}
