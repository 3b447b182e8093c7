import { z } from 'zod';
import { DateOfBirth, Id, NamePart, Timestamp } from '../contract';

/**
 * What the desk knows of the practice's other desks (issue 17): how current its copy of the
 * practice is (the Sync screen) and records from the feed it had to set aside.
 */
export const SetAsideRecord = z.object({
  id: z.number().int(),
  collection: z.string(),
  /** The upstream's id of the record, where it had one. */
  upstream_id: z.string().nullable(),
  /** Why it was not taken, in plain words (names fields, never their values). */
  reason: z.string(),
  created_at: Timestamp,
});
export type SetAsideRecord = z.infer<typeof SetAsideRecord>;

export const PracticeView = z.object({
  /** null: not asked yet; false: the upstream has no changes feed (push still works). */
  available: z.boolean().nullable(),
  /** The last pull's failure code (e.g. `upstream_unreachable`), null when it answered. */
  error: z.string().nullable(),
  /** When this desk last heard from the practice. */
  last_pulled_at: Timestamp.nullable(),
  /** When this desk last had everything the practice had; null: still bootstrapping. */
  caught_up_at: Timestamp.nullable(),
  /** More is waiting upstream (a bootstrap in progress, or news not yet read). */
  behind: z.boolean(),
  /** Records received from the practice so far (bootstrap progress). */
  received: z.number().int(),
  set_aside: z.number().int(),
});
export type PracticeView = z.infer<typeof PracticeView>;

export const PracticeViewDetail = PracticeView.extend({ set_aside_records: z.array(SetAsideRecord) });
export type PracticeViewDetail = z.infer<typeof PracticeViewDetail>;

/** Intake's question before creating a patient: who already exists that may be this person? */
export const FindDuplicatesInput = z.strictObject({
  first_name: NamePart,
  last_name: NamePart,
  date_of_birth: DateOfBirth,
  member_id: z.string().trim().min(1).max(200).optional(),
});
export type FindDuplicatesInput = z.input<typeof FindDuplicatesInput>;

export const DuplicateCandidate = z.object({
  patient_id: Id,
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  /** Why this patient may be the same person. */
  reasons: z.array(z.enum(['name_and_date_of_birth', 'member_id'])),
  created_at: Timestamp,
});
export type DuplicateCandidate = z.infer<typeof DuplicateCandidate>;
export const DuplicateCandidates = z.object({ data: z.array(DuplicateCandidate) });

/** Two registrations that may be one person, found when one arrived from another desk. */
export const PossibleDuplicate = z.object({
  patient: DuplicateCandidate.pick({ patient_id: true, first_name: true, last_name: true, date_of_birth: true, created_at: true }),
  other: DuplicateCandidate.pick({ patient_id: true, first_name: true, last_name: true, date_of_birth: true, created_at: true }),
  reason: z.enum(['name_and_date_of_birth', 'member_id']),
  state: z.enum(['open', 'linked', 'dismissed']),
});
export type PossibleDuplicate = z.infer<typeof PossibleDuplicate>;

/** A person's answer: the same person (linked: shown together, never merged) or two people (dismissed). */
export const ResolveDuplicateInput = z.strictObject({ patient_id: Id, other_patient_id: Id, state: z.enum(['linked', 'dismissed']) });
