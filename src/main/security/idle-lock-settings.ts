import { eq } from 'drizzle-orm';
import { IDLE_LOCK_DEFAULT_MINUTES, IdleLockSettings, IdleLockUpdate } from '../../shared/bridge/security-contract';
import type { StaffRole } from '../../shared/bridge/staff-contract';
import { parseOrThrow } from '../../shared/service-error';
import { inTransaction, type Db } from '../db/open-database';
import { settings } from '../db/schema';

const KEY = 'idle_lock_minutes';
const ROLE_KEY: Record<StaffRole, string> = { front_desk: 'idle_lock_minutes_front_desk', manager: 'idle_lock_minutes_manager' };
const Minutes = IdleLockSettings.shape.minutes;

function readMinutes(db: Db, key: string): number | null {
  const parsed = Minutes.safeParse(db.select().from(settings).where(eq(settings.key, key)).get()?.value);
  return parsed.success ? parsed.data : null;
}

function write(db: Db, key: string, value: number) {
  db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
}

/**
 * How long the desk may sit untouched before PHI is hidden, and each role's own limit once
 * staff sign in (a role not set yet follows the desk's minutes); kept in the settings table.
 */
export function readIdleLockSettings(db: Db): IdleLockSettings {
  const minutes = readMinutes(db, KEY) ?? IDLE_LOCK_DEFAULT_MINUTES;
  return { minutes, by_role: { front_desk: readMinutes(db, ROLE_KEY.front_desk) ?? minutes, manager: readMinutes(db, ROLE_KEY.manager) ?? minutes } };
}

/** Validated whole before anything is written, so a bad role's value leaves the others as they were. */
export function saveIdleLockSettings(db: Db, input: unknown): IdleLockSettings {
  const update: IdleLockUpdate = parseOrThrow(IdleLockUpdate, input);
  inTransaction(db, () => {
    if (update.minutes !== undefined) write(db, KEY, update.minutes);
    for (const role of ['front_desk', 'manager'] as const) {
      const value = update.by_role?.[role];
      if (value !== undefined) write(db, ROLE_KEY[role], value);
    }
  });
  return readIdleLockSettings(db);
}
