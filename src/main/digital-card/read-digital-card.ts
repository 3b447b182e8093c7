import { randomUUID } from 'node:crypto';
import { payerResolver } from '../appointments/schedule-card';
import type { Db } from '../db/open-database';
import type { Clock } from '../support/clock';
import type { ExtractedFieldName } from '../../shared/contract';
import type { PayerResolution } from '../../shared/payers/payer-search';
import { notFound } from '../../shared/service-error';
import { mapCoverage, type CoverageExtra } from './carin-coverage';
import { DigitalCardFailure } from './digital-card-failure';
import { DEFAULT_NETWORK_POLICY, OfflineFailure, type NetworkPolicy } from './guarded-fetch';
import { createIssuerDirectory, type IssuerDirectory } from './issuer-directory';
import { decodeJws, jwsFromHealthCardFile, jwsFromShcText, MAX_INFLATED_BYTES } from './shc-payload';
import { verifyShc } from './shc-verify';
import { expiredReason, fetchShlinkFiles, looksLikeShlink, parseShlink, PasscodeNeeded, type AskPasscode } from './shlink';
import { readWaitingLinks, updateWaitingLinks, type WaitingLink } from './waiting-links';

/**
 * A digital insurance card from the text a barcode (or a scanner, or a file) carried: a
 * SMART Health Card (`shc:/…`) verified against the desk's trusted issuers, or a SMART
 * Health Link (`shlink:/…`) fetched and decrypted, or kept as *waiting* while offline.
 * Never throws for bad input: every failure is a result with its reason, and nothing is
 * written but a waiting link.
 */

export interface DigitalCardResult {
  kind: 'shc' | 'shlink';
  status: 'verified' | 'not_verified' | 'waiting' | 'failed';
  reason?: string;
  fields: Partial<Record<ExtractedFieldName, string>>;
  extra?: DigitalCardExtra;
}

export type DigitalCardExtra = CoverageExtra & {
  /** The issuer as the directory names it, and its `iss`. */
  issuer_name?: string;
  issuer?: string;
  /** A waiting link's id: `completeWaitingLinks` reports its result under it. */
  waiting_id?: string;
  /** The link's label, as the patient's app wrote it. */
  link_label?: string;
  /** The payer found in the desk's payer directory by the card's payer id, else its name; absent when none or several fit. */
  clearinghouse_entity_id?: string;
  [key: string]: unknown;
};

export interface DigitalCardDeps {
  db: Db;
  clock: Clock;
  /** Defaults to the directory in `db`. */
  issuers?: IssuerDirectory;
  /** Limits for links; tests add their loopback server as `allowOrigin`. */
  network?: NetworkPolicy;
  /** What the sync worker knows: false saves a link as waiting without trying the network. */
  online?: () => boolean;
  /** Asks the person for a link's passcode (flag P); absent in the background (the link keeps waiting). */
  askPasscode?: AskPasscode;
  /** Named to a link's server as the recipient. */
  recipient?: string;
  /** The inflate limit for a card's content (a zip bomb stops here). */
  maxInflatedBytes?: number;
  /** Ids and error classes only: what a card carries is PHI. */
  log?: (message: string) => void;
  /** Finds a payer in the desk's payer directory; defaults to the one the schedule import uses. */
  payers?: (text: string) => PayerResolution;
}

const WAITING_REASON = 'Waiting for the digital card: the desk is offline; it completes by itself when back online.';
const PASSCODE_REASON = 'Waiting for the digital card: the link needs its passcode; scan it again to enter it.';

function failed(kind: DigitalCardResult['kind'], error: unknown): DigitalCardResult {
  if (error instanceof DigitalCardFailure) return { kind, status: error.status, reason: error.message, fields: {} };
  // An unexpected error's message may hold what the card carried: the desk gets a generic reason.
  return { kind, status: 'failed', reason: 'The digital card could not be read.', fields: {} };
}

function issuersOf(deps: DigitalCardDeps): IssuerDirectory {
  return deps.issuers ?? createIssuerDirectory({ db: deps.db, clock: deps.clock });
}

/**
 * The payer in the desk's directory: by the card's payer id first (exact), else its name; one
 * payer or none, never a guess among several (the reader's payer field keeps the card's name).
 */
function withPayer(deps: DigitalCardDeps, mapped: ReturnType<typeof mapCoverage>): { fields: DigitalCardResult['fields']; extra: DigitalCardExtra } {
  const resolve = deps.payers ?? payerResolver(deps.db);
  const payerId = mapped.extra.payer_id?.toUpperCase();
  const byId = payerId ? resolve(payerId) : null;
  // An id names its payer only when written in full: the search's near hits are for names.
  if (byId?.kind === 'matched' && [byId.entry.payer_id, ...byId.entry.alias_ids].some((id) => id.toUpperCase() === payerId)) {
    return { fields: mapped.fields, extra: { ...mapped.extra, clearinghouse_entity_id: byId.entry.id } };
  }
  const byName = mapped.fields.payer_name ? resolve(mapped.fields.payer_name) : null;
  if (byName?.kind === 'matched') return { fields: mapped.fields, extra: { ...mapped.extra, clearinghouse_entity_id: byName.entry.id } };
  return { fields: mapped.fields, extra: { ...mapped.extra } };
}

/** A SMART Health Card's JWS → verified (or not) fields. */
function readShcJws(deps: DigitalCardDeps, jws: string): DigitalCardResult {
  const card = decodeJws(jws, deps.maxInflatedBytes ?? MAX_INFLATED_BYTES);
  const vc = card.payload.vc as { credentialSubject?: { fhirBundle?: unknown } } | undefined;
  const bundle = vc?.credentialSubject?.fhirBundle;
  if (!bundle) throw new DigitalCardFailure('The SMART Health Card carries no FHIR bundle.');
  const trust = verifyShc({ issuers: issuersOf(deps), clock: deps.clock }, card);
  const { fields, extra } = withPayer(deps, mapCoverage(bundle));
  const issuer = trust.issuer ? { issuer_name: trust.issuer.name, issuer: trust.issuer.iss } : typeof card.payload.iss === 'string' ? { issuer: card.payload.iss } : {};
  return trust.status === 'verified'
    ? { kind: 'shc', status: 'verified', fields, extra: { ...extra, ...issuer } }
    : { kind: 'shc', status: 'not_verified', reason: trust.reason, fields, extra: { ...extra, ...issuer } };
}

/** A link's files: the first SMART Health Card (verified as any card), else FHIR content (never verified: it is not signed). */
async function readShlinkOnline(deps: DigitalCardDeps, payload: string): Promise<DigitalCardResult> {
  const link = parseShlink(payload);
  const expired = expiredReason(link, deps.clock);
  if (expired) return { kind: 'shlink', status: 'failed', reason: expired, fields: {} };
  const files = await fetchShlinkFiles(
    { clock: deps.clock, network: deps.network ?? DEFAULT_NETWORK_POLICY, recipient: deps.recipient ?? 'Coverdesk front desk', askPasscode: deps.askPasscode },
    link,
  );
  const label = link.label ? { link_label: link.label } : {};
  const cardFailures: DigitalCardResult[] = [];
  for (const file of files.filter((f) => f.contentType === 'application/smart-health-card')) {
    try {
      const result = readShcJws(deps, jwsFromHealthCardFile(file.content));
      return { ...result, kind: 'shlink', extra: { ...result.extra, ...label } };
    } catch (error) {
      cardFailures.push(failed('shlink', error));
    }
  }
  for (const file of files.filter((f) => f.contentType === 'application/fhir+json')) {
    let content: unknown;
    try {
      content = JSON.parse(file.content);
    } catch {
      continue;
    }
    try {
      const { fields, extra } = withPayer(deps, mapCoverage(content));
      return {
        kind: 'shlink',
        status: 'not_verified',
        reason: 'The link carries the coverage as plain FHIR, not a signed health card: confirm the values with the patient.',
        fields,
        extra: { ...extra, ...label },
      };
    } catch (error) {
      cardFailures.push(failed('shlink', error));
    }
  }
  return cardFailures[0] ?? { kind: 'shlink', status: 'failed', reason: 'The SMART Health Link carries no health card or FHIR coverage.', fields: {} };
}

async function readShlink(deps: DigitalCardDeps, payload: string): Promise<DigitalCardResult> {
  const link = parseShlink(payload); // a damaged link is refused now, never kept waiting
  const expired = expiredReason(link, deps.clock);
  if (expired) return { kind: 'shlink', status: 'failed', reason: expired, fields: {} };
  if (deps.online?.() !== false) {
    try {
      return await readShlinkOnline(deps, payload);
    } catch (error) {
      if (!(error instanceof OfflineFailure) && !(error instanceof PasscodeNeeded)) throw error;
      return keepWaiting(deps, payload, error instanceof PasscodeNeeded ? PASSCODE_REASON : WAITING_REASON);
    }
  }
  return keepWaiting(deps, payload, WAITING_REASON);
}

function keepWaiting(deps: DigitalCardDeps, payload: string, reason: string): DigitalCardResult {
  const id = `shl_${randomUUID()}`;
  const at = deps.clock.now().toISOString();
  updateWaitingLinks(deps.db, (links) => [...links, { id, payload: payload.trim(), created_at: at, tries: 0, waiting_reason: reason, result: null, completed_at: null }]);
  return { kind: 'shlink', status: 'waiting', reason, fields: {}, extra: { waiting_id: id } };
}

export async function readDigitalCard(deps: DigitalCardDeps, payload: string): Promise<DigitalCardResult> {
  const text = payload.trim();
  const kind: DigitalCardResult['kind'] = looksLikeShlink(text) ? 'shlink' : 'shc';
  try {
    if (kind === 'shlink') return await readShlink(deps, text);
    if (text.startsWith('{')) return readShcJws(deps, jwsFromHealthCardFile(text));
    if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(text)) return readShcJws(deps, text);
    return readShcJws(deps, jwsFromShcText(text));
  } catch (error) {
    // The class, never the message (it may quote the card): a database refusing the waiting link told from a bad card.
    if (!(error instanceof DigitalCardFailure)) deps.log?.(`digital card: ${kind} failed (${error instanceof Error ? error.constructor.name : typeof error})`);
    return failed(kind, error);
  }
}

export interface CompletedLink {
  waiting_id: string;
  result: DigitalCardResult;
}

/**
 * For the sync worker, once the upstream answers again: reads every waiting link; each
 * that finishes (verified, not verified or failed) keeps its result and is reported, so
 * the card it belongs to can be filled. A link still offline, or needing a person's
 * passcode, keeps waiting. Returns only the links finished in this call.
 */
export function completeWaitingLinks(deps: DigitalCardDeps & { onCompleted?: (done: CompletedLink) => void }): Promise<CompletedLink[]> {
  // The worker may call again while a slow link is still being read: one run per database, or a link would be fetched (and reported) twice.
  const running = RUNS.get(deps.db);
  if (running) return running.then(() => []);
  const run = completeAll(deps).finally(() => RUNS.delete(deps.db));
  RUNS.set(deps.db, run);
  return run;
}

const RUNS = new WeakMap<Db, Promise<CompletedLink[]>>();

async function completeAll(deps: DigitalCardDeps & { onCompleted?: (done: CompletedLink) => void }): Promise<CompletedLink[]> {
  const done: CompletedLink[] = [];
  for (const link of readWaitingLinks(deps.db).filter((entry) => entry.result === null)) {
    let result: DigitalCardResult;
    let stillWaiting: string | null = null;
    try {
      result = await readShlinkOnline({ ...deps, askPasscode: undefined }, link.payload);
    } catch (error) {
      if (error instanceof OfflineFailure) stillWaiting = WAITING_REASON;
      else if (error instanceof PasscodeNeeded) stillWaiting = PASSCODE_REASON;
      result = failed('shlink', error);
    }
    const at = deps.clock.now().toISOString();
    updateWaitingLinks(deps.db, (links) =>
      links.map((entry): WaitingLink =>
        entry.id !== link.id
          ? entry
          : stillWaiting
            ? { ...entry, tries: entry.tries + 1, waiting_reason: stillWaiting }
            : { ...entry, tries: entry.tries + 1, result: { ...result, extra: { ...result.extra, waiting_id: link.id } }, completed_at: at },
      ),
    );
    if (stillWaiting) continue;
    const finished = { waiting_id: link.id, result: { ...result, extra: { ...result.extra, waiting_id: link.id } } };
    done.push(finished);
    deps.onCompleted?.(finished);
  }
  return done;
}

/** A waiting link's state: its result once complete, else still waiting with the reason. */
export function waitingLinkResult(db: Db, id: string): DigitalCardResult | null {
  const link = readWaitingLinks(db).find((entry) => entry.id === id);
  if (!link) return null;
  return (link.result as DigitalCardResult | null) ?? { kind: 'shlink', status: 'waiting', reason: link.waiting_reason, fields: {}, extra: { waiting_id: id } };
}

/** One waiting link changed by id; an id the desk never issued is refused by name, nothing written. */
function changeWaitingLink(db: Db, id: string, change: (link: WaitingLink) => WaitingLink): WaitingLink {
  let changed: WaitingLink | undefined;
  updateWaitingLinks(db, (links) =>
    links.map((entry) => {
      if (entry.id !== id) return entry;
      changed = change(entry);
      return changed;
    }),
  );
  if (!changed) throw notFound('waiting digital-card link', id);
  return changed;
}

/** Intake saved the card while its link waited: the link's fields are offered for that card when they arrive. */
export function tieWaitingLink(db: Db, id: string, cardId: string): WaitingLink {
  return changeWaitingLink(db, id, (link) => ({ ...link, card_id: cardId }));
}

/** The desk answered the offer: never offered again. */
export function answerWaitingLink(db: Db, id: string, answer: 'used' | 'declined'): WaitingLink {
  return changeWaitingLink(db, id, (link) => ({ ...link, answer }));
}

/** The newest arrived, unanswered link tied to one of these cards (a patient's current card and its earlier versions). */
export function arrivedForCards(db: Db, cardIds: readonly string[]): DigitalCardResult | null {
  const ids = new Set(cardIds);
  const arrived = readWaitingLinks(db)
    .filter((link) => link.card_id !== undefined && ids.has(link.card_id) && link.result !== null && link.answer === undefined)
    .sort((a, b) => ((a.completed_at ?? '') < (b.completed_at ?? '') ? 1 : -1));
  return arrived[0] ? waitingLinkResult(db, arrived[0].id) : null;
}
