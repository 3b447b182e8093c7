import type { Clock } from '../support/clock';
import { IssuerCrl, IssuerKey, type TrustedIssuerRecord } from '../../shared/bridge/digital-card-contract';
import { guardedFetch, OfflineFailure, type NetworkPolicy } from './guarded-fetch';
import { normaliseIss, type IssuerDirectory } from './issuer-directory';

/**
 * Refreshes the trusted issuers from the configured directory URLs (VCI format:
 * `{participating_issuers: [{iss, name}]}`), each issuer's keys from
 * `iss/.well-known/jwks.json` and each key's revocation list from
 * `iss/.well-known/crl/<kid>.json` when the key announces one (`crlVersion`). Through the
 * same guarded fetch as links (https, public addresses, limits). An issuer that cannot be
 * reached keeps what the desk had: the directory stays usable offline.
 */

export interface RefreshDeps {
  issuers: IssuerDirectory;
  network: NetworkPolicy;
  clock: Clock;
}

export interface RefreshOutcome {
  refreshed: number;
  /** Per issuer or directory that failed: the address and why (no card data is involved). */
  failures: { url: string; reason: string }[];
  offline: boolean;
}

async function getJson(network: NetworkPolicy, url: string, what: string): Promise<unknown> {
  const res = await guardedFetch(network, url, { what });
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}`);
  return JSON.parse(res.body.toString('utf8')) as unknown;
}

export async function refreshIssuers(deps: RefreshDeps): Promise<RefreshOutcome> {
  const outcome: RefreshOutcome = { refreshed: 0, failures: [], offline: false };
  const listed = new Map<string, string>();
  for (const url of deps.issuers.directoryUrls()) {
    try {
      const body = (await getJson(deps.network, url, 'issuer directory')) as { participating_issuers?: unknown };
      for (const entry of Array.isArray(body.participating_issuers) ? body.participating_issuers : []) {
        const { iss, name } = (entry ?? {}) as { iss?: unknown; name?: unknown };
        if (typeof iss === 'string' && iss) listed.set(normaliseIss(iss), typeof name === 'string' && name.trim() ? name.trim().slice(0, 200) : iss);
      }
    } catch (error) {
      if (error instanceof OfflineFailure) return { ...outcome, offline: true };
      outcome.failures.push({ url, reason: (error as Error).message });
    }
  }
  const records: TrustedIssuerRecord[] = [];
  for (const [iss, name] of listed) {
    try {
      const jwks = (await getJson(deps.network, `${iss}/.well-known/jwks.json`, "issuer's keys")) as { keys?: unknown };
      const keys = (Array.isArray(jwks.keys) ? jwks.keys : [])
        .filter((key) => (key as { kty?: unknown })?.kty === 'EC')
        .map((key) => IssuerKey.safeParse(Object.fromEntries(Object.entries(key as object).filter(([field]) => field in IssuerKey.shape))).data)
        .filter((key): key is IssuerKey => key !== undefined);
      const crls: IssuerCrl[] = [];
      for (const key of keys.filter((k) => k.crlVersion !== undefined)) {
        const crl = IssuerCrl.safeParse(await getJson(deps.network, `${iss}/.well-known/crl/${encodeURIComponent(key.kid)}.json`, "issuer's revocation list"));
        if (!crl.success) throw new Error(`the revocation list of key ${key.kid} is not {kid, method: "rid", ctr, rids}`);
        crls.push(crl.data);
      }
      records.push({ iss, name, keys, crls, refreshed_at: deps.clock.now().toISOString(), source: 'directory' });
    } catch (error) {
      if (error instanceof OfflineFailure) {
        outcome.offline = true;
        break;
      }
      outcome.failures.push({ url: iss, reason: (error as Error).message });
    }
  }
  deps.issuers.upsert(records);
  return { ...outcome, refreshed: records.length };
}
