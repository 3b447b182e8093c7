import { eq } from 'drizzle-orm';
import { IDLE_LOCK_DEFAULT_MINUTES, IdleLockSettings } from '../../shared/bridge/security-contract';
import type { Db } from '../db/open-database';
import { settings } from '../db/schema';

const KEY = 'idle_lock_minutes';

/** How long the desk may sit untouched before PHI is hidden; kept in the settings table. */
export function readIdleLockSettings(db: Db): IdleLockSettings {
  const row = db.select().from(settings).where(eq(settings.key, KEY)).get();
  const parsed = IdleLockSettings.shape.minutes.safeParse(row?.value);
  return { minutes: parsed.success ? parsed.data : IDLE_LOCK_DEFAULT_MINUTES };
}

export function saveIdleLockSettings(db: Db, value: IdleLockSettings): IdleLockSettings {
  db.insert(settings).values({ key: KEY, value: value.minutes }).onConflictDoUpdate({ target: settings.key, set: { value: value.minutes } }).run();
  return readIdleLockSettings(db);
}
