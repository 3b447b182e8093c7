import { asc, count, eq, isNull, and } from 'drizzle-orm';
import type { BridgeMethod } from '../../shared/bridge/contract';
import {
  EMERGENCY_SIGN_IN,
  StaffAddInput,
  StaffChoosePinInput,
  StaffSetupInput,
  StaffSignInInput,
  StaffUpdateInput,
  type SignedIn,
  type StaffMember,
  type StaffSession,
} from '../../shared/bridge/staff-contract';
import { ID_PREFIX, toTimestamp } from '../../shared/contract';
import { parseOrThrow, ServiceError } from '../../shared/service-error';
import type { AuditLog } from '../audit/audit-log';
import { inTransaction, type Db } from '../db/open-database';
import { settings, staff } from '../db/schema';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import { DEFAULT_PIN_POLICY, hashPin, pinMatches, StoredPin, waitError, wrongPin, type PinPolicy, type WorkstationLock } from './workstation-lock';

export interface StaffAccountDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  audit: AuditLog;
  /** Today's single lock PIN: a desk that has one proves it when it makes its first manager. */
  lock: Pick<WorkstationLock, 'status' | 'unlock' | 'removePin'>;
  policy?: Partial<PinPolicy>;
  /**
   * Whether a desk with no staff yet shows the first-start screen (`setup_needed`); default
   * true. False (tests and benches that drive the page as before staff existed): the desk works
   * without sign-in until a manager is made through the bridge.
   */
  askFirstManager?: boolean;
}

/** The people whose PIN a manager set (a settings row, not a column: no schema change for one flag). */
const MUST_CHOOSE_PIN_KEY = 'staff_must_choose_pin';

type StaffRow = typeof staff.$inferSelect;

function toMember(row: StaffRow): StaffMember {
  return { id: row.id, name: row.name, role: row.role, created_at: row.created_at, disabled_at: row.disabled_at };
}

/** The audit's subject for a refused call: the method as a desk subject (`desk:settings_update`). */
export function refusedSubject(method: BridgeMethod): string {
  return `desk:${method.replace('.', '_').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`.slice(0, 69);
}

/**
 * The desk's staff and who is signed in (issue 28, items 1 and 3). The host holds the signed-in
 * person (in memory: a restart signs everyone out) and counts each person's wrong PINs in their
 * row, as the lock counts its own: three free tries, then doubling waits. Checks run one at a
 * time, so two tries sent together cannot both slip in before the count goes up.
 */
export function createStaffAccounts(deps: StaffAccountDeps) {
  const { db } = deps;
  const policy = { ...DEFAULT_PIN_POLICY, ...deps.policy };
  const nowMs = () => deps.clock.now().getTime();
  const now = () => toTimestamp(deps.clock.now());
  let current: SignedIn | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const row = (id: string): StaffRow => {
    const found = db.select().from(staff).where(eq(staff.id, id)).get();
    if (!found) throw new ServiceError('resource_not_found', `There is no staff member ${id}.`);
    return found;
  };
  const hasStaff = () => (db.select({ n: count() }).from(staff).get()?.n ?? 0) > 0;
  const enabledManagers = () => db.select({ n: count() }).from(staff).where(and(eq(staff.role, 'manager'), isNull(staff.disabled_at))).get()?.n ?? 0;
  const nameTaken = (name: string, except?: string) => {
    const same = db.$client.prepare('SELECT id FROM staff WHERE lower(name) = lower(?)').all(name) as { id: string }[];
    return same.some((r) => r.id !== except);
  };
  const refuseTakenName = (name: string, except?: string) => {
    if (nameTaken(name, except)) {
      throw new ServiceError('validation_failed', `Someone at this desk is already called ${name}.`, [
        { path: 'name', code: 'taken', message: 'name must differ from every other staff member’s (add an initial).' },
      ]);
    }
  };

  const mustChoosePin = (): string[] => {
    const value = db.select().from(settings).where(eq(settings.key, MUST_CHOOSE_PIN_KEY)).get()?.value;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  };
  const setMustChoosePin = (id: string, must: boolean) => {
    const value = [...mustChoosePin().filter((other) => other !== id), ...(must ? [id] : [])];
    db.insert(settings).values({ key: MUST_CHOOSE_PIN_KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
  };

  function session(): StaffSession {
    const people = db.select({ id: staff.id, name: staff.name }).from(staff).where(isNull(staff.disabled_at)).orderBy(asc(staff.name)).all();
    return {
      setup_needed: !hasStaff() && deps.askFirstManager !== false,
      lock_pin_set: deps.lock.status().pin_set,
      signed_in: current,
      must_choose_pin: current !== null && mustChoosePin().includes(current.id),
      people,
    };
  }

  function signInAs(member: StaffRow) {
    current = { id: member.id, name: member.name, role: member.role };
  }

  return {
    session,
    hasStaff,
    current: (): SignedIn | null => current,
    /** The signed-in person still has a PIN a manager set (and so knows): theirs to replace first. */
    mustChoosePin: (): boolean => current !== null && mustChoosePin().includes(current.id),

    /** First start: the one screen's name and PIN become the desk's manager, signed in. */
    setup: (input: unknown) =>
      serial(async () => {
        const { name, pin, lock_pin } = parseOrThrow(StaffSetupInput, input);
        if (hasStaff()) throw new ServiceError('already_set_up', 'This desk already has a manager. Sign in, or ask a manager to add you.', undefined, { status: 409, type: 'invalid_request_error' });
        if (deps.lock.status().pin_set) {
          if (lock_pin === undefined) {
            throw new ServiceError('validation_failed', 'lock_pin is required: this desk has a lock PIN; enter it to become its manager.', [
              { path: 'lock_pin', code: 'required', message: 'lock_pin is required: enter the PIN that unlocks this desk today.' },
            ]);
          }
          // Counted like any unlock: wrong tries wait as they do at the lock.
          await deps.lock.unlock(lock_pin);
        }
        const member: StaffRow = { id: deps.ids.next(ID_PREFIX.staff), name, role: 'manager', pin: await hashPin(pin), failures: 0, retry_at: null, created_at: now(), disabled_at: null };
        inTransaction(db, () => {
          if (hasStaff()) throw new ServiceError('already_set_up', 'This desk already has a manager.', undefined, { status: 409, type: 'invalid_request_error' });
          db.insert(staff).values(member).run();
          signInAs(member);
          deps.audit.append('staff_added', member.id);
          deps.audit.append('sign_in', member.id);
        });
        // The staff PINs replace the desk's one PIN: it would otherwise still lock everyone out.
        if (lock_pin !== undefined && deps.lock.status().pin_set) await deps.lock.removePin({ current_pin: lock_pin });
        return session();
      }),

    signIn: (input: unknown) =>
      serial(async () => {
        const { id, pin } = parseOrThrow(StaffSignInInput, input);
        const member = row(id);
        if (member.disabled_at !== null) {
          deps.audit.append('sign_in_refused', id);
          throw new ServiceError('staff_disabled', `${member.name} can no longer sign in at this desk. A manager can enable them again in Settings → Staff.`, undefined, { status: 403, type: 'permission_error' });
        }
        if (member.retry_at !== null && Date.parse(member.retry_at) > nowMs()) {
          deps.audit.append('sign_in_refused', id);
          throw waitError(Date.parse(member.retry_at) - nowMs());
        }
        const stored = parseOrThrow(StoredPin, member.pin);
        if (!(await pinMatches(stored, pin))) {
          const failures = member.failures + 1;
          const wrong = wrongPin(policy, failures, nowMs());
          inTransaction(db, () => {
            db.update(staff).set({ failures, retry_at: wrong.retry_at }).where(eq(staff.id, id)).run();
            deps.audit.append('sign_in_refused', id);
          });
          throw wrong.error;
        }
        inTransaction(db, () => {
          db.update(staff).set({ failures: 0, retry_at: null }).where(eq(staff.id, id)).run();
          signInAs(member);
          deps.audit.append('sign_in', id);
        });
        return session();
      }),

    /**
     * Emergency access proved by the recovery code (`recovery.emergencyAccess`, audited there):
     * manager rights until this sign-in ends, to set a forgotten PIN or add a manager.
     */
    grantEmergency(): StaffSession {
      current = EMERGENCY_SIGN_IN;
      return session();
    },

    /**
     * The signed-in person read again after their row changed elsewhere (a staff file
     * imported): a new name or role holds at once, and a disabled person is signed out.
     * Emergency access has no row and is kept.
     */
    refreshSignedIn(): void {
      if (current === null || current.id === EMERGENCY_SIGN_IN.id) return;
      const found = db.select().from(staff).where(eq(staff.id, current.id)).get();
      current = found && found.disabled_at === null ? { id: found.id, name: found.name, role: found.role } : null;
    },

    /** Switch user, the idle time-out or the OS lock: the person is signed out (audited as them). */
    signOut(reason: 'sign_out' | 'lock' | 'time_out' = 'sign_out'): StaffSession {
      if (current !== null) {
        deps.audit.append(reason, reason === 'lock' ? 'desk:lock' : current.id);
        current = null;
      }
      return session();
    },

    /** The signed-in person's own PIN, replacing one a manager set for them (audited as them). */
    choosePin: (input: unknown) =>
      serial(async () => {
        const { pin } = parseOrThrow(StaffChoosePinInput, input);
        const person = current;
        if (person === null || person.id === EMERGENCY_SIGN_IN.id) throw new ServiceError('sign_in_required', 'Sign in to choose your PIN.', undefined, { status: 401, type: 'authentication_error' });
        const hashed = await hashPin(pin);
        inTransaction(db, () => {
          db.update(staff).set({ pin: hashed, failures: 0, retry_at: null }).where(eq(staff.id, person.id)).run();
          setMustChoosePin(person.id, false);
          deps.audit.append('staff_changed', person.id);
        });
        return session();
      }),

    list: (): StaffMember[] => db.select().from(staff).orderBy(asc(staff.name)).all().map(toMember),

    add: (input: unknown) =>
      serial(async () => {
        const { name, role, pin } = parseOrThrow(StaffAddInput, input);
        // Before the first manager the role guard lets every call through: adding someone then
        // would skip the first start (and its lock PIN proof), or leave a desk with no manager.
        if (!hasStaff()) throw new ServiceError('setup_needed', 'This desk has no manager yet: the first start makes one (name and PIN) before anyone else is added.', undefined, { status: 409, type: 'invalid_request_error' });
        refuseTakenName(name);
        const member: StaffRow = { id: deps.ids.next(ID_PREFIX.staff), name, role, pin: await hashPin(pin), failures: 0, retry_at: null, created_at: now(), disabled_at: null };
        inTransaction(db, () => {
          refuseTakenName(name);
          db.insert(staff).values(member).run();
          deps.audit.append('staff_added', member.id);
        });
        return toMember(member);
      }),

    update: (input: unknown) =>
      serial(async () => {
        const { id, name, role, disabled, pin } = parseOrThrow(StaffUpdateInput, input);
        const newPin = pin === undefined ? undefined : await hashPin(pin);
        return inTransaction(db, () => {
          const before = row(id);
          if (name !== undefined) refuseTakenName(name, id);
          const disabled_at = disabled === undefined ? before.disabled_at : disabled ? (before.disabled_at ?? now()) : null;
          const after: StaffRow = { ...before, name: name ?? before.name, role: role ?? before.role, disabled_at };
          const wasManager = before.role === 'manager' && before.disabled_at === null;
          const stillManager = after.role === 'manager' && after.disabled_at === null;
          if (wasManager && !stillManager && enabledManagers() <= 1) {
            throw new ServiceError('last_manager', `${before.name} is the desk's only manager: make someone else a manager first.`, [
              { path: disabled ? 'disabled' : 'role', code: 'last_manager', message: 'the desk must keep at least one enabled manager.' },
            ]);
          }
          db.update(staff)
            .set({ name: after.name, role: after.role, disabled_at: after.disabled_at, ...(newPin ? { pin: newPin, failures: 0, retry_at: null } : {}) })
            .where(eq(staff.id, id))
            .run();
          // Someone else's PIN set by a manager is theirs to replace at their next sign-in.
          if (newPin) setMustChoosePin(id, current?.id !== id);
          if (newPin || after.name !== before.name || after.role !== before.role || after.disabled_at !== before.disabled_at) deps.audit.append('staff_changed', id);
          // A person disabled or demoted while signed in loses what they may no longer do at once.
          if (current?.id === id) current = after.disabled_at === null ? { id, name: after.name, role: after.role } : null;
          return toMember(after);
        });
      }),
  };
}

export type StaffAccounts = ReturnType<typeof createStaffAccounts>;
