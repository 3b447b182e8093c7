import type { ClearinghouseEntity, Provider } from '../../shared/contract';
import { npiCheckDigit } from '../../shared/npi';
import { LEGACY_PAYERS } from '../../shared/payers/payer-directory';

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

/**
 * The eight payers the sandbox served before the full directory: their entity ids stay
 * fixed (tests, docs and synced databases use them). The sandbox and the desk's first
 * cache hold every payer of the directory (`directoryEntities()`).
 */
export const SEED_CLEARINGHOUSE_ENTITIES: readonly ClearinghouseEntity[] = LEGACY_PAYERS;

/** One coverage of a covered person in the sandbox's roster (the `roster` table). */
export interface RosterEntry {
  id: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  member_id: string;
  clearinghouse_entity_id: string;
  group_number?: string;
  plan_name?: string;
}

const entity = (n: number) => SEED_CLEARINGHOUSE_ENTITIES[n - 1].id;

/**
 * Covered people a discovery can find (fictional). Member ids follow each payer's usual
 * shape; the last few carry the reserved prefixes of docs/sandbox.md, so a discovery can
 * also lead to an inactive plan or a rejected check.
 */
export const SEED_ROSTER: readonly RosterEntry[] = [
  { id: 'rst_01', first_name: 'Maria', last_name: 'Garcia', date_of_birth: '1978-03-14', member_id: 'W284619375', clearinghouse_entity_id: entity(1), group_number: '0867530', plan_name: 'Aetna Choice POS II' },
  { id: 'rst_02', first_name: 'James', last_name: 'Smith', date_of_birth: '1965-11-02', member_id: 'U51837264', clearinghouse_entity_id: entity(2), group_number: '3338221', plan_name: 'Cigna Open Access Plus' },
  { id: 'rst_03', first_name: 'Aisha', last_name: 'Khan', date_of_birth: '1992-07-21', member_id: '918273645', clearinghouse_entity_id: entity(3), group_number: '705412', plan_name: 'UnitedHealthcare Choice Plus' },
  { id: 'rst_04', first_name: 'Robert', last_name: 'Johnson', date_of_birth: '1951-01-30', member_id: 'H47382910', clearinghouse_entity_id: entity(4), plan_name: 'Humana Gold Plus HMO' },
  { id: 'rst_05', first_name: 'Emily', last_name: 'Nguyen', date_of_birth: '2015-05-09', member_id: 'XOF837261945', clearinghouse_entity_id: entity(5), group_number: '221874', plan_name: 'BlueChoice PPO' },
  { id: 'rst_06', first_name: 'David', last_name: 'Cohen', date_of_birth: '1983-09-17', member_id: '82736451901', clearinghouse_entity_id: entity(6), group_number: 'OX12345', plan_name: 'Oxford Freedom Plan' },
  { id: 'rst_07', first_name: 'Sofia', last_name: 'Hernandez', date_of_birth: '1999-12-25', member_id: '90817263545', clearinghouse_entity_id: entity(7), plan_name: 'Molina Marketplace Silver' },
  { id: 'rst_08', first_name: 'Kwame', last_name: 'Mensah', date_of_birth: '1988-02-29', member_id: 'U93746182', clearinghouse_entity_id: entity(8), plan_name: 'Ambetter Balanced Care 4' },
  { id: 'rst_09', first_name: 'Ada', last_name: 'Lovelace', date_of_birth: '1985-12-10', member_id: 'XGH123456789', clearinghouse_entity_id: entity(5), group_number: 'G-100', plan_name: 'BlueChoice PPO' },
  { id: 'rst_10', first_name: 'Walter', last_name: 'Brennan', date_of_birth: '1947-06-05', member_id: 'INACTIVE5550123', clearinghouse_entity_id: entity(1), plan_name: 'Aetna Medicare Value Plan' },
  { id: 'rst_11', first_name: 'Grace', last_name: 'Okoye', date_of_birth: '1970-10-10', member_id: 'AAA75X0091', clearinghouse_entity_id: entity(3), group_number: '118822' },
  { id: 'rst_12', first_name: 'Liam', last_name: 'Murphy', date_of_birth: '2001-04-18', member_id: 'PENDING42001', clearinghouse_entity_id: entity(2) },
];
