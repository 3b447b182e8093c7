import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AuditLog } from '../audit/audit-log';
import { groupCommitFor } from '../db/group-commit';
import type { Db } from '../db/open-database';
import { insurance_cards, outbox, patients } from '../db/schema';
import { enqueue } from '../outbox/outbox-store';
import { getRow, toResource, type RecordStoreDeps } from '../records/record-store';
import type { RecordChange } from '../operations/local-service';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import type { PatientCorrected, PatientCorrection } from '../../shared/bridge/desk-contract';
import { InsuranceCardCreate } from '../../shared/contract';
import { ServiceError } from '../../shared/service-error';

export interface CorrectPatientDeps extends Pick<RecordStoreDeps, 'photoUrl'> {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  audit: AuditLog;
  onChange?(change: RecordChange): void;
}

/** Entries that may still go out: a failed or parked one waits for a person and must not hold the correction back. */
const IN_FLIGHT = ['queued', 'sending'] as const;
const CARD_FIELDS = InsuranceCardCreate.keyof().options;

/**
 * Corrects a patient's name or date of birth (issue 26, item 7; docs/decisions.md, "A
 * patient's details corrected"). The chart is corrected in place, audited (`correct`, the
 * patient's id), in one transaction with what the upstream is given, which has creates only:
 *
 * - the patient has not been sent yet (every entry still queued, never tried): the queued
 *   request is corrected, and the service receives the right details once;
 * - otherwise the service holds the old details and cannot change them: the corrected patient
 *   is registered there as a new record (a second entry for the same local patient, whose
 *   upstream id replaces the old one once sent) and each of the patient's cards is sent again
 *   under it, so every check and discovery sent from now on names the corrected patient.
 *   Checks and discoveries still waiting to go out wait for those cards. The old records stay
 *   on the service.
 */
export async function correctPatient(deps: CorrectPatientDeps, input: PatientCorrection): Promise<PatientCorrected> {
  const { db } = deps;
  const result = await groupCommitFor(db).run(() => {
    const before = getRow(db, 'patients', input.id);
    const details = { first_name: input.first_name, last_name: input.last_name, date_of_birth: input.date_of_birth };
    if (before.first_name === details.first_name && before.last_name === details.last_name && before.date_of_birth === details.date_of_birth) {
      throw new ServiceError('nothing_to_correct', 'The name and date of birth are the same as on file: nothing was changed.', undefined, { status: 422 });
    }
    db.update(patients).set(details).where(eq(patients.id, input.id)).run();
    deps.audit.append('correct', input.id);

    const entries = db.select().from(outbox).where(eq(outbox.record_id, input.id)).all();
    const notSentYet = before.remote_id === null && entries.length > 0 && entries.every((e) => e.state === 'queued' && e.first_attempt_at === null);
    if (notSentYet) {
      db.update(outbox)
        .set({ payload: details, updated_at: deps.clock.now().toISOString() })
        .where(eq(outbox.record_id, input.id))
        .run();
      return { upstream: 'not_sent_yet' as const, cards: [] as string[] };
    }

    // The new patient entry waits for any earlier one still going out, so the last id written is the corrected one.
    const patientEntry = enqueue(deps, { collection: 'patients', record_id: input.id, payload: details, refs: [] });
    const earlier = entries.filter((e) => (IN_FLIGHT as readonly string[]).includes(e.state)).map((e) => e.id);
    if (earlier.length) db.update(outbox).set({ depends_on: earlier }).where(eq(outbox.id, patientEntry)).run();

    const cards = db.select().from(insurance_cards).where(eq(insurance_cards.patient_id, input.id)).all();
    const cardEntries = new Map<string, string>();
    const dependOn = (entryIds: string[], on: string) => {
      if (entryIds.length === 0) return;
      db.update(outbox)
        .set({ depends_on: sql`json_insert(${outbox.depends_on}, '$[#]', ${on})` })
        .where(inArray(outbox.id, entryIds))
        .run();
    };
    for (const card of cards) {
      const own = db.select().from(outbox).where(eq(outbox.record_id, card.id)).all();
      // A card not sent yet simply goes out after the corrected patient, naming it.
      if (card.remote_id === null && own.length > 0 && own.every((e) => e.state === 'queued' && e.first_attempt_at === null)) {
        dependOn(own.map((e) => e.id), patientEntry);
        continue;
      }
      const payload: Record<string, unknown> = {};
      for (const field of CARD_FIELDS) {
        const value = card[field as keyof typeof card];
        if (value !== null && value !== undefined) payload[field] = value;
      }
      const photos = [card.front_photo_object_key, card.back_photo_object_key].filter((k): k is string => !!k);
      const id = enqueue(deps, { collection: 'insurance_cards', record_id: card.id, payload, refs: photos });
      dependOn([id], patientEntry);
      for (const e of own) if ((IN_FLIGHT as readonly string[]).includes(e.state)) dependOn([id], e.id);
      cardEntries.set(card.id, id);
    }
    // Checks and discoveries not sent yet would name the old patient: they wait for the card sent again.
    if (cardEntries.size) {
      const waiting = db
        .select({ id: outbox.id, card: sql<string>`json_extract(${outbox.payload}, '$.insurance_card_id')` })
        .from(outbox)
        .where(
          and(
            inArray(outbox.collection, ['electronic_eligibility_checks', 'electronic_eligibility_discoveries']),
            eq(outbox.state, 'queued'),
            isNull(outbox.first_attempt_at),
            inArray(sql`json_extract(${outbox.payload}, '$.insurance_card_id')`, [...cardEntries.keys()]),
          ),
        )
        .all();
      for (const entry of waiting) dependOn([entry.id], cardEntries.get(entry.card)!);
    }
    return { upstream: 'registered_again' as const, cards: [...cardEntries.keys()] };
  });
  deps.onChange?.({ collection: 'patients', id: input.id });
  for (const card of result.cards) deps.onChange?.({ collection: 'insurance_cards', id: card });
  return { patient: toResource(deps, 'patients', getRow(db, 'patients', input.id)), upstream: result.upstream, cards_resent: result.cards.length };
}
