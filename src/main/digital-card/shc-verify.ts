import { createPublicKey, verify } from 'node:crypto';
import type { Clock } from '../support/clock';
import type { TrustedIssuerRecord } from '../../shared/bridge/digital-card-contract';
import type { DecodedJws } from './shc-payload';
import type { IssuerDirectory } from './issuer-directory';

/**
 * Whether a decoded card can be trusted: signed ES256 by a key of an issuer in the desk's
 * trusted-issuer directory, not revoked (the key's revocation list: `rid`, or
 * `rid.timestamp` for cards issued before that time), and inside its nbf/exp window.
 * Every refusal says why; nothing unknown is ever taken as verified.
 */

/** Clocks of phones and issuers drift: a card issued a few minutes "in the future" is not refused. */
const CLOCK_SKEW_SECONDS = 300;

export type CardTrust = { status: 'verified'; issuer: TrustedIssuerRecord } | { status: 'not_verified'; reason: string; issuer?: TrustedIssuerRecord };

export interface VerifyDeps {
  issuers: Pick<IssuerDirectory, 'find'>;
  clock: Clock;
}

function dateOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** Revoked when the CRL lists the rid alone, or as `rid.timestamp` with the card issued (nbf) before the timestamp. */
function isRevoked(issuer: TrustedIssuerRecord, kid: string, rid: unknown, nbf: number | undefined): boolean {
  if (typeof rid !== 'string') return false;
  for (const crl of issuer.crls) {
    if (crl.kid !== kid) continue;
    for (const entry of crl.rids) {
      const [revokedRid, timestamp] = entry.split('.');
      if (revokedRid !== rid) continue;
      if (timestamp === undefined) return true;
      if (nbf === undefined || nbf < Number(timestamp)) return true;
    }
  }
  return false;
}

export function verifyShc(deps: VerifyDeps, card: DecodedJws): CardTrust {
  const { header, payload } = card;
  if (header.alg !== 'ES256') return { status: 'not_verified', reason: `The card is signed with ${JSON.stringify(header.alg ?? 'no algorithm')}; SMART Health Cards are signed ES256.` };
  const iss = typeof payload.iss === 'string' ? payload.iss : '';
  if (!iss) return { status: 'not_verified', reason: 'The card does not say who issued it (no iss).' };
  const issuer = deps.issuers.find(iss);
  if (!issuer) return { status: 'not_verified', reason: `The card is issued by ${iss}, which is not among the desk's trusted issuers (Settings › Digital cards).` };
  const kid = typeof header.kid === 'string' ? header.kid : '';
  const jwk = issuer.keys.find((key) => key.kid === kid);
  if (!jwk) {
    return {
      status: 'not_verified',
      issuer,
      reason: issuer.keys.length
        ? `The card is signed with a key ${issuer.name} does not publish (or has withdrawn): kid ${kid || '(none)'}.`
        : `The desk has no keys for ${issuer.name} yet: refresh the trusted issuers when online, or import them from a file.`,
    };
  }
  let valid = false;
  try {
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
    valid = verify('sha256', Buffer.from(card.signingInput), { key, dsaEncoding: 'ieee-p1363' }, card.signature);
  } catch {
    valid = false;
  }
  if (!valid) return { status: 'not_verified', issuer, reason: `The card's signature does not match ${issuer.name}'s key: it was altered or not issued by them.` };
  const now = deps.clock.now().getTime() / 1000;
  const nbf = typeof payload.nbf === 'number' ? payload.nbf : undefined;
  const exp = typeof payload.exp === 'number' ? payload.exp : undefined;
  if (nbf !== undefined && nbf > now + CLOCK_SKEW_SECONDS) return { status: 'not_verified', issuer, reason: `The card is not valid before ${dateOf(nbf)}.` };
  if (exp !== undefined && exp < now) return { status: 'not_verified', issuer, reason: `The card expired on ${dateOf(exp)}.` };
  const rid = (payload.vc as { rid?: unknown } | undefined)?.rid;
  if (isRevoked(issuer, kid, rid, nbf)) return { status: 'not_verified', issuer, reason: `${issuer.name} has revoked this card.` };
  return { status: 'verified', issuer };
}
