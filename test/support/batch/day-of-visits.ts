import type { Host } from '@src/main/host/create-host';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import type { WorklistStatus } from '@src/shared/bridge/appointment-contract';

/**
 * A day of appointments whose outcome the sandbox decides by member id (docs/sandbox.md):
 * active, inactive, rejected (AAA 72), failed (clearinghouse error), and patients with no
 * card or a card naming no payer. What the batch tests, the crash test's child and the
 * bench share; no vitest here.
 */
export type VisitKind = 'active' | 'inactive' | 'rejected' | 'check_failed' | 'no_card' | 'payer_unknown';

export const KIND_CYCLE: VisitKind[] = ['active', 'active', 'inactive', 'rejected', 'active', 'check_failed', 'no_card', 'active', 'payer_unknown', 'active'];

export const EXPECTED_STATUS: Record<VisitKind, WorklistStatus> = {
  active: 'ready',
  inactive: 'inactive',
  rejected: 'rejected',
  check_failed: 'check_failed',
  no_card: 'no_card',
  payer_unknown: 'payer_unknown',
};

const MEMBER_PREFIX: Partial<Record<VisitKind, string>> = { active: 'W', inactive: 'INACTIVE', rejected: 'AAA72', check_failed: 'CHERROR', payer_unknown: 'W' };

/** Checked by a batch: a card with a payer. */
export const isCheckable = (kind: VisitKind) => kind !== 'no_card' && kind !== 'payer_unknown';

export interface PlannedVisit {
  appointment_id: string;
  patient_id: string;
  card_id: string | null;
  kind: VisitKind;
}

/** `count` patients with their cards and one appointment each on `date`, every five minutes from 8:00. */
export async function createDayOfVisits(host: Host, date: string, count: number, offset = 0): Promise<PlannedVisit[]> {
  const { bridge } = host;
  const planned: PlannedVisit[] = [];
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    const kind = KIND_CYCLE[n % KIND_CYCLE.length];
    const person = { first_name: `Pat${n}`, last_name: `Visit${String.fromCharCode(65 + (n % 26))}`, date_of_birth: `19${50 + (n % 50)}-0${1 + (n % 9)}-1${n % 10}` };
    const patient = await bridge['patients.create'](person);
    let card_id: string | null = null;
    if (kind !== 'no_card') {
      const card = await bridge['cards.create']({
        patient_id: patient.id,
        member_id: `${MEMBER_PREFIX[kind]}${100000 + n}`,
        ...(kind === 'payer_unknown' ? {} : { insurance_carrier_ids: [SEED_CLEARINGHOUSE_ENTITIES[n % SEED_CLEARINGHOUSE_ENTITIES.length].id] }),
      });
      card_id = card.id;
    }
    const minutes = 8 * 60 + 5 * (n % 120);
    const written = await bridge['appointments.create']({
      date,
      time: `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
      ...person,
      provider: SEED_PROVIDERS[n % 3].name,
      visit_type: n % 2 === 0 ? 'Office Visit' : 'Follow up',
      external_id: `PM-${date}-${n}`,
    });
    planned.push({ appointment_id: written.appointment.id, patient_id: patient.id, card_id, kind });
  }
  return planned;
}
