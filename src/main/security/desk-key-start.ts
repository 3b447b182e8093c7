import type { Clock } from '../support/clock';
import { openDeskKey, recoverDeskKey, type DeskKeyStore } from './desk-key-recovery';
import { RecoveryCodeError } from './recovery-code';

/** What the one recovery screen shows: why the code is asked, and the last try's refusal. */
export interface RecoveryCodePrompt {
  message: string;
  /** The previous code's refusal (mistyped, wrong, used), for the person to try again; null the first time. */
  error: string | null;
}

/** Asks the person for the recovery code; null when they gave up (closed the screen, or no code was given). */
export type AskRecoveryCode = (prompt: RecoveryCodePrompt) => Promise<string | null>;

export interface DeskKeyStartDeps extends DeskKeyStore {
  clock: Clock;
  askRecoveryCode: AskRecoveryCode;
}

/** Said once the code has opened the desk: the code is spent, so the desk needs a new sheet. */
export const RECOVERED_NOTICE =
  'The desk’s key was opened with the recovery code and kept again in this computer’s key store. The code is now used: print a new recovery sheet in Settings → Recovery sheet.';

/**
 * The desk's key at start, for every way the desk starts (the desktop app's window, `start:web
 * --recovery-code`): the key store's key; or, when the store has lost it and a recovery wrap
 * is there, the code asked for (again after each refusal, which changes nothing) until it
 * opens the key, which is then kept in the store again. Null: the person gave up, nothing
 * changed. Any other key or database error is thrown as it was.
 */
export async function startDeskKey(deps: DeskKeyStartDeps, input: { dataDir: string }): Promise<{ key: Buffer; recovered: boolean } | null> {
  const opened = await openDeskKey(deps, input);
  if (opened.state === 'open') return { key: opened.key, recovered: false };
  let error: string | null = null;
  for (;;) {
    const code = await deps.askRecoveryCode({ message: opened.message, error });
    if (code === null) return null;
    try {
      return { key: await recoverDeskKey(deps, { dataDir: input.dataDir, code }), recovered: true };
    } catch (refused) {
      if (!(refused instanceof RecoveryCodeError)) throw refused;
      error = refused.message;
    }
  }
}
