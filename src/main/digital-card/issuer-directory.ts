import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import { inTransaction, type Db } from '../db/open-database';
import { settings } from '../db/schema';
import type { Clock } from '../support/clock';
import {
  IssuerCrl,
  IssuerKey,
  TrustedIssuerRecord,
  type IssuerDirectoryView,
  type IssuersImported,
} from '../../shared/bridge/digital-card-contract';
import type { FieldError } from '../../shared/contract';
import { validationFailed } from '../../shared/service-error';

/**
 * The trusted-issuer directory: which SMART Health Card issuers the desk trusts, with
 * their keys and revocation lists, so cards verify offline. Kept as two values in the
 * settings table of the encrypted database (a few dozen issuers, always read whole), so
 * no migration. Filled from a file (`importFile`) or from VCI-format directories
 * (`refresh-issuers.ts`, when online).
 */

const KEYS = { issuers: 'digital_cards.issuers', urls: 'digital_cards.directory_urls' } as const;
const StoredIssuers = z.array(TrustedIssuerRecord);
const StoredUrls = z.array(z.string());

export interface IssuerDirectoryDeps {
  db: Db;
  clock: Clock;
}

export interface IssuerDirectory {
  records(): TrustedIssuerRecord[];
  find(iss: string): TrustedIssuerRecord | undefined;
  directoryUrls(): string[];
  view(): IssuerDirectoryView;
  /** Adds or replaces issuers by `iss` in one transaction; records from elsewhere stay. */
  upsert(records: TrustedIssuerRecord[], directoryUrls?: string[]): void;
  /** A trusted-issuer file: any bad entry refuses the file, naming it, and changes nothing. */
  importFile(text: string): IssuersImported;
}

/** `iss` as cards carry it: no trailing slash (the spec forbids one; the JWKS is at iss + /.well-known/jwks.json). */
export function normaliseIss(iss: string): string {
  return iss.trim().replace(/\/+$/, '');
}

/**
 * One issuer from a file, in any of the shapes found in the wild: ours
 * (`{iss, name, keys: [jwk] | {keys: [jwk]}, crls}`) and the VCI snapshot's
 * (`{issuer: {iss, name}, keys, crls}`).
 */
function issuerFromFile(entry: unknown, path: string, now: string, errors: FieldError[]): TrustedIssuerRecord | null {
  const raw = (entry ?? {}) as Record<string, unknown>;
  const inner = (typeof raw.issuer === 'object' && raw.issuer !== null ? raw.issuer : raw) as Record<string, unknown>;
  const iss = typeof inner.iss === 'string' ? normaliseIss(inner.iss) : '';
  if (!/^https:\/\/[^/]/.test(iss)) {
    errors.push({ path: `${path}.iss`, code: 'invalid_format', message: `${path}.iss must be the issuer's https address, as its cards carry it (e.g. https://issuer.example.org).` });
    return null;
  }
  const keyList = Array.isArray(raw.keys) ? raw.keys : Array.isArray((raw.keys as { keys?: unknown } | undefined)?.keys) ? (raw.keys as { keys: unknown[] }).keys : [];
  const keys: z.infer<typeof IssuerKey>[] = [];
  keyList.forEach((key, index) => {
    // A key that is not ES256 (an RSA key in the same JWKS, for other uses) cannot sign a card: left out, not an error.
    if ((key as { kty?: unknown })?.kty !== 'EC') return;
    const parsed = IssuerKey.safeParse(Object.fromEntries(Object.entries(key as object).filter(([name]) => name in IssuerKey.shape)));
    if (parsed.success) keys.push(parsed.data);
    else errors.push({ path: `${path}.keys[${index}]`, code: 'invalid_format', message: `${path}.keys[${index}] is not an ES256 (P-256) public key with kid, x and y.` });
  });
  const crls: z.infer<typeof IssuerCrl>[] = [];
  (Array.isArray(raw.crls) ? raw.crls : []).forEach((crl, index) => {
    const parsed = IssuerCrl.safeParse(crl);
    if (parsed.success) crls.push(parsed.data);
    else errors.push({ path: `${path}.crls[${index}]`, code: 'invalid_format', message: `${path}.crls[${index}] is not a revocation list ({kid, method: "rid", ctr, rids}).` });
  });
  const name = typeof inner.name === 'string' && inner.name.trim() ? inner.name.trim().slice(0, 200) : new URL(iss).host;
  return { iss, name, keys, crls, refreshed_at: keys.length ? now : null, source: 'file' };
}

export function createIssuerDirectory(deps: IssuerDirectoryDeps): IssuerDirectory {
  const { db } = deps;

  function readKey<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
    const row = db.select().from(settings).where(inArray(settings.key, [key])).get();
    const parsed = schema.safeParse(row?.value);
    return parsed.success ? parsed.data : fallback;
  }
  const records = () => readKey(KEYS.issuers, StoredIssuers, []);
  const directoryUrls = () => readKey(KEYS.urls, StoredUrls, []);

  function write(key: string, value: unknown): void {
    db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
  }

  function view(): IssuerDirectoryView {
    return {
      issuers: records()
        .map((record) => ({
          iss: record.iss,
          name: record.name,
          kids: record.keys.map((key) => key.kid),
          revoked: record.crls.reduce((sum, crl) => sum + crl.rids.length, 0),
          refreshed_at: record.refreshed_at,
          source: record.source,
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      directory_urls: directoryUrls(),
    };
  }

  function upsert(incoming: TrustedIssuerRecord[], urls?: string[]): void {
    inTransaction(db, () => {
      const byIss = new Map(records().map((record) => [record.iss, record]));
      for (const record of incoming) byIss.set(record.iss, record);
      write(KEYS.issuers, [...byIss.values()]);
      if (urls) write(KEYS.urls, urls);
    });
  }

  return {
    records,
    find: (iss) => records().find((record) => record.iss === normaliseIss(iss)),
    directoryUrls,
    view,
    upsert,
    importFile(text) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw validationFailed([{ path: 'text', code: 'invalid_format', message: 'The trusted-issuer file is not JSON: choose the issuers file (JSON) exported from a directory or given by your IT.' }]);
      }
      const body = (parsed ?? {}) as Record<string, unknown>;
      const list = Array.isArray(body.issuers) ? body.issuers : Array.isArray(body.participating_issuers) ? body.participating_issuers : null;
      const urls = body.directory_urls;
      const errors: FieldError[] = [];
      if (!list && urls === undefined) {
        throw validationFailed([{ path: 'text', code: 'invalid_format', message: 'The trusted-issuer file has no "issuers" (or VCI "participating_issuers") list and no "directory_urls".' }]);
      }
      if (urls !== undefined && (!Array.isArray(urls) || urls.some((url) => typeof url !== 'string' || !/^https:\/\/[^/]/.test(url)))) {
        errors.push({ path: 'directory_urls', code: 'invalid_format', message: 'directory_urls must be a list of https addresses of VCI-format issuer directories.' });
      }
      const now = deps.clock.now().toISOString();
      const records = (list ?? []).map((entry, index) => issuerFromFile(entry, `issuers[${index}]`, now, errors));
      if (errors.length) throw validationFailed(errors);
      upsert(records as TrustedIssuerRecord[], urls as string[] | undefined);
      return { imported: records.length, directory: view() };
    },
  };
}
