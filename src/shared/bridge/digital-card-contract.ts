import { z } from 'zod';
import { Timestamp } from '../contract';

/**
 * The desk's trusted-issuer directory for SMART Health Cards (issue 27): the issuers whose
 * signatures make a digital card *verified*. Desk-local, kept in the encrypted database.
 */

/** An EC P-256 public key as a JWKS lists it; only what verification needs is kept. */
export const IssuerKey = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  kid: z.string().min(1).max(200),
  x: z.string().min(1).max(100),
  y: z.string().min(1).max(100),
  alg: z.literal('ES256').optional(),
  use: z.literal('sig').optional(),
  /** The issuer publishes a revocation list for this key, at this version. */
  crlVersion: z.number().int().nonnegative().optional(),
});
export type IssuerKey = z.infer<typeof IssuerKey>;

/** A key's revocation list (SHC spec): revoked `rid`s, each optionally `rid.timestamp` (cards issued before it). */
export const IssuerCrl = z.object({
  kid: z.string().min(1),
  method: z.literal('rid'),
  ctr: z.number().int().nonnegative(),
  rids: z.array(z.string().min(1).max(200)).max(100_000),
});
export type IssuerCrl = z.infer<typeof IssuerCrl>;

export const TrustedIssuerRecord = z.object({
  /** The issuer's base URL, exactly as cards carry it in `iss` (no trailing slash). */
  iss: z.string().url().max(500),
  name: z.string().min(1).max(200),
  keys: z.array(IssuerKey).max(50),
  crls: z.array(IssuerCrl).max(50),
  /** When keys (and revocation lists) were last fetched or imported. */
  refreshed_at: Timestamp.nullable(),
  source: z.enum(['file', 'directory']),
});
export type TrustedIssuerRecord = z.infer<typeof TrustedIssuerRecord>;

/** What Settings lists: name, iss, key ids, revoked card count, last refreshed. */
export const TrustedIssuerView = z.object({
  iss: z.string(),
  name: z.string(),
  kids: z.array(z.string()),
  revoked: z.number().int().nonnegative(),
  refreshed_at: Timestamp.nullable(),
  source: z.enum(['file', 'directory']),
});
export type TrustedIssuerView = z.infer<typeof TrustedIssuerView>;

export const IssuerDirectoryView = z.object({
  issuers: z.array(TrustedIssuerView),
  /** VCI-format directories (`{participating_issuers:[{iss,name}]}`) refreshed from when online. */
  directory_urls: z.array(z.string()),
});
export type IssuerDirectoryView = z.infer<typeof IssuerDirectoryView>;

export const IssuersImported = z.object({ imported: z.number().int().nonnegative(), directory: IssuerDirectoryView });
export type IssuersImported = z.infer<typeof IssuersImported>;

export const IssuersRefreshed = z.object({
  refreshed: z.number().int().nonnegative(),
  /** Directories or issuers that could not be read, with why; what the desk had of them stays. */
  failures: z.array(z.object({ url: z.string(), reason: z.string() })),
  offline: z.boolean(),
  directory: IssuerDirectoryView,
});
export type IssuersRefreshed = z.infer<typeof IssuersRefreshed>;

/** A SMART Health Link read offline: asked for by the id its `waiting` reading carried. */
const WaitingLinkId = z.string().min(1, 'must name the waiting link (the reading\'s waiting_id)').max(100);
export const WaitingLinkInput = z.strictObject({ id: WaitingLinkId });

/** The card saved while its link waited: the arrived fields are offered for that card. */
export const TieWaitingLinkInput = z.strictObject({ id: WaitingLinkId, card_id: z.string().min(1, 'must name the saved card').max(100) });

/** The cards of one patient's screen (the current one and earlier versions): a link tied to any of them. */
export const ArrivedCardInput = z.strictObject({ card_ids: z.array(z.string().min(1).max(100)).max(200, 'must list at most 200 cards') });

/** The desk's answer to "The digital card arrived: use its details?" */
export const AnswerWaitingLinkInput = z.strictObject({ id: WaitingLinkId, answer: z.enum(['used', 'declined'], { message: 'must be used or declined' }) });

export const WaitingLinkTied = z.object({ id: z.string(), card_id: z.string().optional(), answer: z.enum(['used', 'declined']).optional() });
export type WaitingLinkTied = z.infer<typeof WaitingLinkTied>;
