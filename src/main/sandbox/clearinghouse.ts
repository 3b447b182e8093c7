import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { checks, clearinghouse_entities, discoveries, extractions, insurance_cards, providers, roster } from '../db/schema';
import type { HostComponent } from '../support/host-component';
import type { HotFolderExtractor } from '../inbox/hot-folder';
import { buildRecord } from '../operations/create-builders';
import type { PhotoStore } from '../photos/photo-store';
import { findRow, insertRecord } from '../records/record-store';
import { preparedOnce } from '../records/statements';
import type { RowOf } from '../records/tables';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import type { ServiceType } from '../../shared/contract';
import { buildActiveBenefits, buildInactiveBenefits } from './benefits-builder';
import { entityError, scenarioFor } from './scenarios';
import { normalizeName, type X12Roster } from '../x12/x12-roster';

export const DEFAULT_RESOLUTION_DELAY_MS = 1000;
export const DEFAULT_LONG_PENDING_MS = 60 * 60 * 1000;

/** What a discovery's spawned checks ask about unless it says: the plan as a whole (X12 service type 30). */
const DISCOVERY_SERVICE_TYPE: ServiceType = 'health_benefit_plan_coverage';

export interface ClearinghouseDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  photos: PhotoStore;
  /** How long a discovery, check or extraction stays pending before it resolves. */
  delayMs?: number;
  /** How long the `PENDING…` member ids keep a check pending. */
  longPendingMs?: number;
  /** Reads card photos; without one, extractions fail with `no_engine`. */
  extractor?: HotFolderExtractor;
  /** Told of unexpected errors by record id only. */
  log?(message: string): void;
  /** Real 271 answers (`--x12 DIR`): a check for one of their people answers with that 271. */
  x12?: X12Roster;
}

export interface Clearinghouse extends HostComponent {
  /** Resolves every pending record that is due by the clock; extractions finish asynchronously. */
  resolveDue(): void;
  /** Settles once no extraction is running (tests, and a clean close). */
  idle(): Promise<void>;
  /** Resolves on a timer as well, for clients that wait without reading. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

type DiscoveryRow = RowOf<'electronic_eligibility_discoveries'>;
type CheckRow = RowOf<'electronic_eligibility_checks'>;
type ExtractionRow = RowOf<'extractions'>;

/** Names match as a front desk would: ignoring case, accents and extra spaces. */
function sameName(a: string, b: string): boolean {
  return normalizeName(a) === normalizeName(b);
}

/**
 * The simulated clearinghouse (docs/sandbox.md). Records resolve lazily: before any read
 * the sandbox calls `resolveDue()`, which moves every record whose `created_at + delay`
 * has passed by the injected clock, so tests with a manual clock are exact. `start()`
 * adds a timer for callers that only wait. Each transition updates only a `pending` row:
 * terminal states never change.
 */
export function createClearinghouse(deps: ClearinghouseDeps): Clearinghouse {
  const { db } = deps;
  const delayMs = deps.delayMs ?? DEFAULT_RESOLUTION_DELAY_MS;
  const longPendingMs = deps.longPendingMs ?? DEFAULT_LONG_PENDING_MS;
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;

  const now = () => deps.clock.now();
  const dueBefore = (ms: number) => new Date(now().getTime() - ms).toISOString();

  function resolveDiscovery(discovery: DiscoveryRow): void {
    const finished_at = now().toISOString();
    const candidates = db.select().from(roster).where(eq(roster.date_of_birth, discovery.patient_date_of_birth)).orderBy(asc(roster.id)).all();
    const matches = candidates.filter(
      (person) => sameName(person.first_name, discovery.patient_first_name) && sameName(person.last_name, discovery.patient_last_name),
    );
    inTransaction(db, () => {
      const pending = and(eq(discoveries.id, discovery.id), eq(discoveries.status, 'pending'));
      if (matches.length === 0) {
        db.update(discoveries).set({ status: 'failure', finished_at }).where(pending).run();
        return;
      }
      const card = findRow(db, 'insurance_cards', discovery.insurance_card_id)!;
      const found = matches[0];
      const carriers = [...new Set([...card.insurance_carrier_ids, ...matches.map((m) => m.clearinghouse_entity_id)])];
      // A member id the desk typed is kept: the discovery fills gaps, it does not overrule people.
      db.update(insurance_cards)
        .set({ member_id: card.member_id ?? found.member_id, insurance_carrier_ids: carriers })
        .where(eq(insurance_cards.id, card.id))
        .run();
      db.update(discoveries)
        .set({ status: 'success', finished_at, insurance_card_member_id: discovery.insurance_card_member_id ?? found.member_id })
        .where(pending)
        .run();
      const provider_id = providerFor(card.id);
      if (!provider_id) return;
      for (const entityId of new Set(matches.map((m) => m.clearinghouse_entity_id))) {
        const built = buildRecord(
          deps,
          'electronic_eligibility_checks',
          // The practice's default service type when the discovery carried one.
          { insurance_card_id: card.id, provider_id, clearinghouse_entity_id: entityId, service_type: discovery.service_type ?? DISCOVERY_SERVICE_TYPE },
          { source: 'system' },
        );
        insertRecord(db, 'electronic_eligibility_checks', { ...built.row, electronic_eligibility_discovery_id: discovery.id });
      }
    });
  }

  /** The provider of the card's latest check, else the first seeded one. */
  function providerFor(cardId: string): string | undefined {
    const latest = db.select({ id: checks.provider_id }).from(checks).where(eq(checks.insurance_card_id, cardId)).orderBy(desc(checks.id)).limit(1).get();
    return latest?.id ?? db.select({ id: providers.id }).from(providers).orderBy(asc(providers.id)).limit(1).get()?.id;
  }

  /** Answers with the 271 about this member, if the sandbox was given one; false otherwise. */
  function resolveFromX12(check: CheckRow): boolean {
    const match = deps.x12?.find({
      member_id: check.insurance_card_member_id,
      first_name: check.patient_first_name,
      last_name: check.patient_last_name,
      date_of_birth: check.patient_date_of_birth,
    });
    if (!match) return false;
    const finished_at = now().toISOString();
    const pending = and(eq(checks.id, check.id), eq(checks.status, 'pending'));
    inTransaction(db, () => {
      if (match.kind === 'mismatch') {
        db.update(checks).set({ status: 'failure', finished_at, failure_reason: 'clearinghouse_entity_error', clearinghouse_entity_errors: [match.error] }).where(pending).run();
        return;
      }
      const { benefits, errors } = match.person;
      // Any AAA means the payer refused some of the request: the desk must see why (benefits sent beside it are kept).
      if (errors.length > 0) {
        db.update(checks)
          .set({ status: 'failure', finished_at, failure_reason: 'clearinghouse_entity_error', clearinghouse_entity_errors: errors, ...(benefits.length ? { benefits } : {}) })
          .where(pending)
          .run();
        return;
      }
      const changed = db.update(checks).set({ status: 'success', finished_at, benefits }).where(pending).run().changes;
      const active = benefits.some((b) => b.code.startsWith('active'));
      const inactive = benefits.some((b) => b.code.startsWith('inactive'));
      if (changed && (active || inactive)) {
        db.update(insurance_cards)
          .set({ plan_status: active ? 'active' : 'inactive', plan_status_fetched_at: finished_at })
          .where(eq(insurance_cards.id, check.insurance_card_id))
          .run();
      }
    });
    return true;
  }

  function resolveCheck(check: CheckRow): void {
    if (resolveFromX12(check)) return;
    const scenario = scenarioFor(check.insurance_card_member_id);
    if (scenario.kind === 'long_pending' && Date.parse(check.created_at) + longPendingMs > now().getTime()) return;
    const finished_at = now().toISOString();
    const pending = and(eq(checks.id, check.id), eq(checks.status, 'pending'));
    const serviceType = check.service_type as ServiceType;
    inTransaction(db, () => {
      switch (scenario.kind) {
        case 'active':
        case 'long_pending':
        case 'inactive': {
          const active = scenario.kind !== 'inactive';
          const card = findRow(db, 'insurance_cards', check.insurance_card_id);
          const memberId = check.insurance_card_member_id!;
          const planName = card?.plan_name ?? db.select({ name: roster.plan_name }).from(roster).where(eq(roster.member_id, memberId)).get()?.name;
          const benefits = active ? buildActiveBenefits(memberId, serviceType, planName) : buildInactiveBenefits(serviceType);
          const changed = db.update(checks).set({ status: 'success', finished_at, benefits }).where(pending).run().changes;
          if (changed) {
            db.update(insurance_cards)
              .set({ plan_status: active ? 'active' : 'inactive', plan_status_fetched_at: finished_at })
              .where(eq(insurance_cards.id, check.insurance_card_id))
              .run();
          }
          return;
        }
        case 'entity_error':
          db.update(checks)
            .set({ status: 'failure', finished_at, failure_reason: 'clearinghouse_entity_error', clearinghouse_entity_errors: [entityError(scenario.code)] })
            .where(pending)
            .run();
          return;
        case 'clearinghouse_error':
          db.update(checks).set({ status: 'failure', finished_at, failure_reason: 'clearinghouse_error' }).where(pending).run();
          return;
      }
    });
  }

  function finishExtraction(id: string, result: { fields: NonNullable<ExtractionRow['fields']> } | { failure_reason: string }): void {
    db.update(extractions)
      .set({ ...result, status: 'fields' in result ? 'success' : 'failure', finished_at: now().toISOString() })
      .where(and(eq(extractions.id, id), eq(extractions.status, 'pending')))
      .run();
  }

  function resolveExtraction(extraction: ExtractionRow): void {
    if (running.has(extraction.id)) return;
    const extractor = deps.extractor;
    if (!extractor) return finishExtraction(extraction.id, { failure_reason: 'no_engine' });
    const card = findRow(db, 'insurance_cards', extraction.insurance_card_id)!;
    const keys = [card.front_photo_object_key, card.back_photo_object_key].filter((k): k is string => !!k);
    if (keys.length === 0) return finishExtraction(extraction.id, { failure_reason: 'no_photos' });
    const work = (async () => {
      try {
        const images = keys.map((key) => deps.photos.read(key));
        const entities = db.select().from(clearinghouse_entities).all();
        const { fields } = await extractor.extract(images, { entities });
        finishExtraction(extraction.id, { fields });
      } catch (error) {
        const reason = error instanceof Error && 'reason' in error ? String((error as { reason: unknown }).reason) : 'extraction_failed';
        deps.log?.(`sandbox: extraction ${extraction.id} failed (${reason})`);
        finishExtraction(extraction.id, { failure_reason: reason });
      }
    })().finally(() => running.delete(extraction.id));
    running.set(extraction.id, work);
  }

  /*
   * Prepared once a connection: every read of the sandbox (each page of the changes feed, each
   * list) and every tick asks all three, and building them anew each time was 3.8 % of the
   * sandbox's thread during a drain (issue 31), CPU the desk's thread shares two cores with.
   */
  const dueIn = <T extends typeof discoveries | typeof checks | typeof extractions>(name: string, table: T) =>
    preparedOnce(db, `clearinghouse:due-${name}`, () =>
      db
        .select()
        .from(table)
        .where(and(eq(table.status, 'pending'), lte(table.created_at, sql.placeholder('cutoff'))))
        .orderBy(asc(table.id))
        .prepare(),
    );

  function resolveDue(): void {
    const cutoff = dueBefore(delayMs);
    for (const discovery of dueIn('discoveries', discoveries).all({ cutoff })) resolveDiscovery(discovery);
    // After discoveries: a check a discovery just spawned is not due yet, by construction.
    for (const check of dueIn('checks', checks).all({ cutoff })) resolveCheck(check);
    for (const extraction of dueIn('extractions', extractions).all({ cutoff })) resolveExtraction(extraction);
  }

  const tickMs = Math.min(250, Math.max(10, Math.floor(delayMs / 4)));

  async function idle(): Promise<void> {
    while (running.size > 0) await Promise.allSettled([...running.values()]);
  }

  return {
    name: 'sandbox-clearinghouse',
    resolveDue,
    idle,
    async start() {
      if (timer) return;
      const tick = () => {
        try {
          resolveDue();
        } catch (error) {
          deps.log?.(`sandbox: resolution pass failed (${error instanceof Error ? error.name : 'unknown'})`);
        }
        if (timer) timer = setTimeout(tick, tickMs);
      };
      timer = setTimeout(tick, tickMs);
    },
    async stop() {
      const t = timer;
      timer = undefined;
      if (t) clearTimeout(t);
      await idle();
    },
  };
}
