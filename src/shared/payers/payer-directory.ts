import type { ClearinghouseEntity } from '../contract';
import { PAYER_ROWS } from './payer-directory.generated';

/** One payer of the directory: what a desk can find it by. */
export interface PayerEntry {
  /** The clearinghouse entity id (`che_…`). */
  id: string;
  name: string;
  /** The primary payer id, the one a 270 is routed by. */
  payer_id: string;
  /** Other payer ids the same payer is known by (other clearinghouses', legacy ones). */
  alias_ids: readonly string[];
  /** Other names: plans, brands, former names, regions. */
  alternate_names: readonly string[];
  /** Eligibility needs the practice to enrol with this payer first. */
  enrollment_required: boolean;
}

/**
 * The eight payers Coverdesk served before the directory: their entity ids are in tests,
 * docs and every database synced since, so the same payer ids keep the same entity ids
 * (and the names people saw; the directory's own name becomes an alternate name).
 */
export const LEGACY_PAYERS: readonly { id: string; name: string; payer_id: string }[] = [
  { id: 'che_01JD0000000000000000000001', name: 'Aetna', payer_id: '60054' },
  { id: 'che_01JD0000000000000000000002', name: 'Cigna', payer_id: '62308' },
  { id: 'che_01JD0000000000000000000003', name: 'UnitedHealthcare', payer_id: '87726' },
  { id: 'che_01JD0000000000000000000004', name: 'Humana', payer_id: '61101' },
  { id: 'che_01JD0000000000000000000005', name: 'Blue Cross Blue Shield of Texas', payer_id: '84980' },
  { id: 'che_01JD0000000000000000000006', name: 'Oxford Health Plans', payer_id: '06111' },
  { id: 'che_01JD0000000000000000000007', name: 'Molina Healthcare of California', payer_id: '38333' },
  { id: 'che_01JD0000000000000000000008', name: 'Ambetter', payer_id: '68069' },
];

/**
 * The entity id of a directory payer: stable as long as its payer id is, so a database
 * synced today still names the same payer after the directory is regenerated.
 */
export function directoryEntityId(payerId: string): string {
  return LEGACY_BY_PAYER_ID.get(payerId)?.id ?? `che_${payerId.replace(/\s+/g, '_')}`;
}

const LEGACY_BY_PAYER_ID = new Map(LEGACY_PAYERS.map((p) => [p.payer_id, p]));

const split = (joined: string): string[] => (joined ? joined.split('|') : []);

let entries: readonly PayerEntry[] | null = null;

/** Every payer that answers eligibility, sorted by payer id (built once, on first use). */
export function payerDirectory(): readonly PayerEntry[] {
  entries ??= PAYER_ROWS.map(([payer_id, name, aliases, names, enrollment]) => {
    const legacy = LEGACY_BY_PAYER_ID.get(payer_id);
    const alternate = split(names);
    if (legacy && legacy.name !== name && !alternate.includes(name)) alternate.unshift(name);
    return {
      id: directoryEntityId(payer_id),
      name: legacy?.name ?? name,
      payer_id,
      alias_ids: split(aliases),
      alternate_names: alternate.filter((n) => n !== legacy?.name),
      enrollment_required: enrollment === 1,
    };
  });
  return entries;
}

/** The directory as the contract's clearinghouse entities (what the sandbox serves). */
export function directoryEntities(): ClearinghouseEntity[] {
  return payerDirectory().map(({ id, name, payer_id }) => ({ id, name, payer_id }));
}

let byPayerId: Map<string, PayerEntry> | null = null;

/** The directory's facts for a payer id, primary or alias (case-insensitive). */
export function directoryPayer(payerId: string): PayerEntry | undefined {
  if (!byPayerId) {
    byPayerId = new Map();
    for (const entry of payerDirectory()) {
      for (const alias of entry.alias_ids) if (!byPayerId.has(alias.toUpperCase())) byPayerId.set(alias.toUpperCase(), entry);
    }
    // Primary ids win over another payer's alias.
    for (const entry of payerDirectory()) byPayerId.set(entry.payer_id.toUpperCase(), entry);
  }
  return byPayerId.get(payerId.trim().toUpperCase());
}

/**
 * The entities a desk knows (from its upstream, which may be a vendor's with names and
 * ids only), with the directory's alias ids and alternate names where the payer id is
 * known to it. Entities the directory does not know are kept, searchable by name and id.
 */
export function withDirectoryFacts(entities: readonly ClearinghouseEntity[]): PayerEntry[] {
  return entities.map((entity) => {
    const known = directoryPayer(entity.payer_id);
    const alternate = known ? [...known.alternate_names, ...(known.name !== entity.name ? [known.name] : [])] : [];
    return {
      id: entity.id,
      name: entity.name,
      payer_id: entity.payer_id,
      alias_ids: known ? [...known.alias_ids, ...(known.payer_id !== entity.payer_id ? [known.payer_id] : [])] : [],
      alternate_names: alternate,
      enrollment_required: known?.enrollment_required ?? false,
    };
  });
}
