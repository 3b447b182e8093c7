import type { ClearinghouseEntity, Provider } from '../../shared/contract';
import { npiCheckDigit } from '../../shared/npi';

function npi(firstNine: string): string {
  return `${firstNine}${npiCheckDigit(firstNine)}`;
}

/** Fixed ids so the sandbox, the host's cache and the docs agree across runs. */
export const SEED_PROVIDERS: readonly Provider[] = [
  { id: 'prv_01JD0000000000000000000001', name: 'Maple Street Family Medicine', npi: npi('123456789') },
  { id: 'prv_01JD0000000000000000000002', name: 'Dr. Amara Okafor, MD', npi: npi('198765432') },
  { id: 'prv_01JD0000000000000000000003', name: 'Dr. Luis Ferreira, DO', npi: npi('145678923') },
  { id: 'prv_01JD0000000000000000000004', name: 'Riverside Physical Therapy', npi: npi('167452983') },
  { id: 'prv_01JD0000000000000000000005', name: 'Harbor Behavioral Health', npi: npi('132547698') },
];

/** Real payer names with the payer ids clearinghouses commonly route them by. */
export const SEED_CLEARINGHOUSE_ENTITIES: readonly ClearinghouseEntity[] = [
  { id: 'che_01JD0000000000000000000001', name: 'Aetna', payer_id: '60054' },
  { id: 'che_01JD0000000000000000000002', name: 'Cigna', payer_id: '62308' },
  { id: 'che_01JD0000000000000000000003', name: 'UnitedHealthcare', payer_id: '87726' },
  { id: 'che_01JD0000000000000000000004', name: 'Humana', payer_id: '61101' },
  { id: 'che_01JD0000000000000000000005', name: 'Blue Cross Blue Shield of Texas', payer_id: '84980' },
  { id: 'che_01JD0000000000000000000006', name: 'Oxford Health Plans', payer_id: '06111' },
  { id: 'che_01JD0000000000000000000007', name: 'Molina Healthcare of California', payer_id: '38333' },
  { id: 'che_01JD0000000000000000000008', name: 'Ambetter', payer_id: '68069' },
];
