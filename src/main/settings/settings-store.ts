import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/open-database';
import { providers, settings } from '../db/schema';
import { holdsCredentials, type DeskSettingsUpdate } from '../../shared/bridge/desk-contract';
import { ServiceType, type FieldError } from '../../shared/contract';
import { referenceNotFound, ServiceError, validationFailed } from '../../shared/service-error';
import { UnsafePermissionsError } from '../support/private-path';
import type { SecretStore } from './secret-store';

/** What the settings table holds: plain preferences. The API key lives in the SecretStore. */
export interface SavedSettings {
  upstream_url: string | null;
  default_provider_id: string | null;
  hot_folder: string | null;
  /** What new checks, and the checks a discovery starts, ask about (an office visit, physical therapy…). */
  default_service_type: ServiceType | null;
}

const KEYS = ['upstream_url', 'default_provider_id', 'hot_folder', 'default_service_type'] as const satisfies readonly (keyof SavedSettings)[];

export interface SettingsStore {
  read(): SavedSettings;
  apiKey(): string | null;
  /**
   * Validates the whole change first, then writes it: a change with one bad field writes
   * nothing. `upstreamTouched`: the change named the URL or the key (even unchanged: saving
   * them again is how a person says "try these credentials again" after a 401).
   */
  update(change: DeskSettingsUpdate): { saved: SavedSettings; upstreamTouched: boolean };
}

/**
 * A secrets file other users can read is refused; the desk is told why and how to fix it
 * (the message names the file and the chmod, never the secret).
 */
function guarded<T>(use: () => T): T {
  try {
    return use();
  } catch (error) {
    if (error instanceof UnsafePermissionsError) throw new ServiceError('secrets_file_unsafe', error.message, undefined, { status: 500 });
    throw error;
  }
}

/**
 * An address saved before a user name or password in it was refused (`UpstreamUrl`): the
 * transport never sent them, and now nothing shows them either (Settings, the status).
 */
function withoutCredentials(url: string): string {
  if (!holdsCredentials(url)) return url;
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

export function createSettingsStore(deps: { db: Db; secrets: SecretStore }): SettingsStore {
  const { db } = deps;
  const secrets: SecretStore = {
    get: (name) => guarded(() => deps.secrets.get(name)),
    set: (name, value) => guarded(() => deps.secrets.set(name, value)),
  };

  function read(): SavedSettings {
    const rows = db.select().from(settings).where(inArray(settings.key, [...KEYS])).all();
    const saved: SavedSettings = { upstream_url: null, default_provider_id: null, hot_folder: null, default_service_type: null };
    for (const row of rows) {
      if (typeof row.value !== 'string') continue;
      // A service type this version no longer knows is as if none were saved.
      if (row.key === 'default_service_type') saved.default_service_type = ServiceType.safeParse(row.value).data ?? null;
      else if (row.key === 'upstream_url') saved.upstream_url = withoutCredentials(row.value);
      else saved[row.key as Exclude<keyof SavedSettings, 'default_service_type' | 'upstream_url'>] = row.value;
    }
    return saved;
  }

  function validate(change: DeskSettingsUpdate): void {
    const errors: FieldError[] = [];
    if (change.default_provider_id) {
      const known = db.select({ id: providers.id }).from(providers).where(eq(providers.id, change.default_provider_id)).get();
      if (!known) errors.push(referenceNotFound('default_provider_id', 'provider', change.default_provider_id));
    }
    if (change.hot_folder && !path.isAbsolute(change.hot_folder)) {
      errors.push({ path: 'hot_folder', code: 'invalid_format', message: 'hot_folder must be a full path to a folder (for example /Users/desk/Scans or C:\\Scans).' });
    }
    if (errors.length) throw validationFailed(errors);
  }

  return {
    read,
    apiKey: () => secrets.get('upstream_api_key'),
    update(change) {
      validate(change);
      // The secret first: if its file cannot be written, the settings table is untouched too.
      if (change.api_key !== undefined) secrets.set('upstream_api_key', change.api_key);
      inTransaction(db, () => {
        for (const key of KEYS) {
          const value = change[key];
          if (value === undefined) continue;
          if (value === null) db.delete(settings).where(eq(settings.key, key)).run();
          else db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
        }
      });
      return { saved: read(), upstreamTouched: change.upstream_url !== undefined || change.api_key !== undefined };
    },
  };
}
