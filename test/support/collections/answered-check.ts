import fs from 'node:fs';
import path from 'node:path';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { read271 } from '@src/main/x12/read-271';
import type { HostFixture } from '@test/support/host-fixture';

const FIXTURES = path.resolve(__dirname, '../../fixtures/x12-271');

/**
 * A successful check for a patient, answered with a real 271's first person's benefits
 * `daysAgo` days before the host's now, as if the clearinghouse had answered it. The patient
 * is made when not given.
 */
export async function answeredCheck(fx: HostFixture, file: string, entityId: string, options: { patientId?: string; daysAgo?: number } = {}): Promise<{ checkId: string; patientId: string }> {
  const desk = { source: 'dashboard' } as const;
  const patientId = options.patientId ?? (await fx.host.service.create('patients', { first_name: 'Ada', last_name: 'Byron', date_of_birth: '1985-12-10' }, desk)).id;
  const card = await fx.host.service.create('insurance_cards', { patient_id: patientId, member_id: 'W123456789', insurance_carrier_ids: [entityId] }, desk);
  const benefits = read271(file, fs.readFileSync(path.join(FIXTURES, file), 'utf8')).people[0].benefits;
  const id = fx.host.ids.next('eec');
  const at = new Date(fx.host.clock.now().getTime() - (options.daysAgo ?? 0) * 86_400_000).toISOString();
  fx.host.database.sqlite
    .prepare(
      `INSERT INTO electronic_eligibility_checks (id, insurance_card_id, provider_id, clearinghouse_entity_id, provider_npi, patient_first_name, patient_last_name,
        patient_date_of_birth, service_type, status, source, benefits, created_at, finished_at) VALUES (?, ?, ?, ?, ?, 'Ada', 'Byron', '1985-12-10', ?, 'success', 'dashboard', ?, ?, ?)`,
    )
    .run(id, card.id, SEED_PROVIDERS[0].id, entityId, SEED_PROVIDERS[0].npi, 'professional_physician_visit_office', JSON.stringify(benefits), at, at);
  return { checkId: id, patientId };
}
