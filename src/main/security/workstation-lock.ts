import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { pinWaitSentence, spokenWait, type LockStatus } from '../../shared/bridge/security-contract';
import { toTimestamp } from '../../shared/contract';
import { ServiceError } from '../../shared/service-error';
import type { Db } from '../db/open-database';
import { settings } from '../db/schema';
import type { Clock } from '../support/clock';

/**
 * scrypt, N = 2^15, r = 8, p = 1, a 16-byte random salt, a 32-byte hash: about 32 MiB and
 * ~0.1 s per try on a desk PC, so a copied database does not give up a 4-digit PIN in a
 * blink. The parameters are stored with each hash, so they can be raised later and old
 * hashes still verify.
 */
export const PIN_KDF = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltBytes: 16 } as const;

/** A few free tries, then a wait that doubles with every further wrong PIN, up to a cap. */
export interface PinPolicy {
  freeTries: number;
  firstWaitMs: number;
  maxWaitMs: number;
}
export const DEFAULT_PIN_POLICY: PinPolicy = { freeTries: 3, firstWaitMs: 30_000, maxWaitMs: 15 * 60_000 };

const PIN_KEY = 'lock_pin';
const FAILURES_KEY = 'lock_failures';

export const StoredPin = z.object({
  kdf: z.literal('scrypt'),
  N: z.number().int(),
  r: z.number().int(),
  p: z.number().int(),
  salt: z.string(),
  hash: z.string(),
});
export type StoredPin = z.infer<typeof StoredPin>;
const Failures = z.object({ count: z.number().int().min(0), retry_at: z.string().nullable() });
type Failures = z.infer<typeof Failures>;

/**
 * The operating system's own check, where the desktop app has one (Touch ID on macOS):
 * `prompt` resolves true when the person passed it. Absent in the browser mode.
 */
export interface SystemUnlock {
  name: string;
  prompt(): Promise<boolean>;
}

export interface WorkstationLock {
  status(): LockStatus;
  isLocked(): boolean;
  /** Locks when a PIN is set; without one there is nothing the host could ask for. */
  engage(): LockStatus;
  unlock(pin: string): Promise<LockStatus>;
  /** A new PIN; replacing one needs the current one (counted like an unlock). */
  setPin(input: { pin: string; current_pin?: string }): Promise<LockStatus>;
  removePin(input: { current_pin: string }): Promise<LockStatus>;
  /** Unlocks through the OS check instead of the PIN; wrong PINs are forgiven by it too. */
  unlockWithSystem(): Promise<LockStatus>;
}

function derive(pin: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  // maxmem above 128·N·r, which is exactly node's 32 MiB default at these parameters.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => scrypt(pin, salt, PIN_KDF.keyLength, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/**
 * The per-workstation PIN and the lock it guards. The host holds both the locked state and
 * the count of wrong PINs (in the settings table, so a restart does not reset it): the
 * renderer only shows what this says. Checks run one at a time, so two tries sent together
 * cannot both slip in before the count goes up.
 */
export function createWorkstationLock(deps: { db: Db; clock: Clock; policy?: Partial<PinPolicy>; systemUnlock?: SystemUnlock }): WorkstationLock {
  const policy = { ...DEFAULT_PIN_POLICY, ...deps.policy };
  const { db } = deps;
  let locked = false;
  let queue: Promise<unknown> = Promise.resolve();

  const readJson = <T>(key: string, schema: z.ZodType<T>): T | null => {
    const row = db.select().from(settings).where(eq(settings.key, key)).get();
    const parsed = schema.safeParse(row?.value);
    return parsed.success ? parsed.data : null;
  };
  const write = (key: string, value: unknown) =>
    db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run();
  const storedPin = () => readJson(PIN_KEY, StoredPin);
  const failures = (): Failures => readJson(FAILURES_KEY, Failures) ?? { count: 0, retry_at: null };
  const now = () => deps.clock.now().getTime();

  function status(): LockStatus {
    const pinSet = storedPin() !== null;
    const f = failures();
    const waiting = f.retry_at !== null && Date.parse(f.retry_at) > now();
    return {
      pin_set: pinSet,
      locked: pinSet && locked,
      retry_at: waiting ? f.retry_at : null,
      tries_left: Math.max(0, policy.freeTries - f.count),
      system_unlock: pinSet ? (deps.systemUnlock?.name ?? null) : null,
    };
  }

  function serial<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  /** Throws unless `pin` is the stored PIN; counts a wrong one and starts or lengthens the wait. */
  async function verify(stored: StoredPin, pin: string): Promise<void> {
    const f = failures();
    if (f.retry_at !== null && Date.parse(f.retry_at) > now()) throw waitError(Date.parse(f.retry_at) - now());
    if (await pinMatches(stored, pin)) {
      write(FAILURES_KEY, { count: 0, retry_at: null });
      return;
    }
    const wrong = wrongPin(policy, f.count + 1, now());
    write(FAILURES_KEY, { count: f.count + 1, retry_at: wrong.retry_at });
    throw wrong.error;
  }

  const hash = hashPin;

  return {
    status,
    // Asked before every desk call: unlocked, that is the flag alone (status() reads two
    // settings rows, a quarter of a millisecond on each click's path).
    isLocked: () => locked && storedPin() !== null,
    engage() {
      if (storedPin() !== null) locked = true;
      return status();
    },
    unlock: (pin) =>
      serial(async () => {
        const stored = storedPin();
        if (stored === null) {
          locked = false;
          return status();
        }
        await verify(stored, pin);
        locked = false;
        return status();
      }),
    setPin: ({ pin, current_pin }) =>
      serial(async () => {
        const stored = storedPin();
        if (stored !== null) {
          if (current_pin === undefined) {
            throw new ServiceError('validation_failed', 'current_pin is required to change the PIN.', [
              { path: 'current_pin', code: 'required', message: 'current_pin is required: enter the PIN set now to change it.' },
            ]);
          }
          await verify(stored, current_pin);
        }
        write(PIN_KEY, await hash(pin));
        write(FAILURES_KEY, { count: 0, retry_at: null });
        return status();
      }),
    unlockWithSystem: () =>
      serial(async () => {
        if (!deps.systemUnlock) {
          throw new ServiceError('system_unlock_unavailable', 'This computer offers no system check for Coverdesk; enter the PIN.', undefined, { status: 409, type: 'invalid_request_error' });
        }
        if (!(await deps.systemUnlock.prompt())) {
          throw new ServiceError('system_unlock_failed', `${deps.systemUnlock.name} did not confirm it was you. Try again, or enter the PIN.`, undefined, { status: 403, type: 'permission_error' });
        }
        write(FAILURES_KEY, { count: 0, retry_at: null });
        locked = false;
        return status();
      }),
    removePin: ({ current_pin }) =>
      serial(async () => {
        const stored = storedPin();
        if (stored === null) return status();
        await verify(stored, current_pin);
        db.delete(settings).where(eq(settings.key, PIN_KEY)).run();
        locked = false;
        return status();
      }),
  };
}

/** A new scrypt record of `pin` with today's parameters. */
export async function hashPin(pin: string): Promise<StoredPin> {
  const salt = randomBytes(PIN_KDF.saltBytes);
  const key = await derive(pin, salt, PIN_KDF);
  return { kdf: 'scrypt', N: PIN_KDF.N, r: PIN_KDF.r, p: PIN_KDF.p, salt: salt.toString('base64'), hash: key.toString('base64') };
}

/** Whether `pin` is the one `stored` was made from, with the parameters stored with it. */
export async function pinMatches(stored: StoredPin, pin: string): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const given = await derive(pin, Buffer.from(stored.salt, 'base64'), stored);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The `count`-th wrong PIN in a row: the wait it starts (free tries first, then doubling up to
 * the cap) and the refusal that says so. The lock and each staff member count alike.
 */
export function wrongPin(policy: PinPolicy, count: number, nowMs: number): { retry_at: string | null; error: ServiceError } {
  const over = count - policy.freeTries;
  const waitMs = over >= 0 ? Math.min(policy.maxWaitMs, policy.firstWaitMs * 2 ** over) : 0;
  const retry_at = waitMs > 0 ? toTimestamp(new Date(nowMs + waitMs)) : null;
  if (waitMs > 0) {
    return { retry_at, error: new ServiceError('pin_incorrect', `That PIN is not right. Wait ${spokenWait(waitMs)} before trying again.`, undefined, { status: 403, type: 'permission_error', retryAfterSeconds: Math.ceil(waitMs / 1000) }) };
  }
  const left = policy.freeTries - count;
  return { retry_at, error: new ServiceError('pin_incorrect', `That PIN is not right. ${left === 1 ? '1 try' : `${left} tries`} left before Coverdesk makes you wait.`, undefined, { status: 403, type: 'permission_error' }) };
}

export function waitError(ms: number): ServiceError {
  return new ServiceError('pin_wait', pinWaitSentence(ms), undefined, {
    status: 429,
    type: 'rate_limit_error',
    retryAfterSeconds: Math.ceil(ms / 1000),
  });
}
