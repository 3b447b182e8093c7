import type { Host } from '@src/main/host/create-host';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS, SEED_ROSTER } from '@src/main/reference/seed-data';
import type { SyncPolicy } from '@src/main/sync/sync-engine';
import { makePng } from '@test/support/images';

/** What sync tests and the crash test's child process share; no vitest here (the child has none). */

/** Backoffs in tens of milliseconds: the same state machine, a hundred times faster. */
export const FAST_POLICY: Partial<SyncPolicy> = {
  send: { baseMs: 20, capMs: 200, maxRetryAfterMs: 5_000 },
  poll: { baseMs: 20, capMs: 150 },
  probe: { baseMs: 20, capMs: 150 },
  stopGraceMs: 500,
};

export const SANDBOX_KEY = 'sk_test_sync_0123456789abcdef';

/** One front-desk visit through the bridge: patient, photos, card, and what the desk runs on it. */
export async function createVisit(host: Host, n: number, options: { discovery?: boolean; extraction?: boolean; memberId?: string } = {}) {
  const { bridge } = host;
  const person = ROSTER_PEOPLE[n % ROSTER_PEOPLE.length];
  const patient = await bridge['patients.create'](person);
  const photo = (shade: number) =>
    bridge['photos.upload']({ content_type: 'image/png', data_base64: Buffer.from(makePng(4, 4, [n % 251, (n >> 8) % 251, shade])).toString('base64') });
  const front = await photo(1);
  const back = await photo(2);
  const card = await bridge['cards.create']({
    patient_id: patient.id,
    member_id: options.memberId ?? `W${String(100000000 + n)}`,
    front_photo_object_key: front.object_key,
    back_photo_object_key: back.object_key,
  });
  const check = await bridge['checks.create']({
    insurance_card_id: card.id,
    provider_id: SEED_PROVIDERS[n % SEED_PROVIDERS.length].id,
    clearinghouse_entity_id: SEED_CLEARINGHOUSE_ENTITIES[n % SEED_CLEARINGHOUSE_ENTITIES.length].id,
    service_type: 'health_benefit_plan_coverage',
  });
  const discovery = options.discovery ? await bridge['discoveries.create']({ insurance_card_id: card.id }) : undefined;
  const extraction = options.extraction ? await bridge['extractions.create']({ insurance_card_id: card.id }) : undefined;
  return { patient, front, back, card, check, discovery, extraction };
}

/** People in the sandbox's roster, so discoveries find them (and spawn checks). */
const ROSTER_PEOPLE = SEED_ROSTER.filter((p) => !/^(AAA|PENDING|CHERROR)/.test(p.member_id)).map(({ first_name, last_name, date_of_birth }) => ({
  first_name,
  last_name,
  date_of_birth,
}));
