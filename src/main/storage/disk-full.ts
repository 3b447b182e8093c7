import { ServiceError } from '../../shared/service-error';

/** What the desk (and a scanner's integrator) reads when a write cannot be stored. */
export const DISK_FULL_MESSAGE = 'The disk is full: free some space; nothing was saved.';

/**
 * Whether `error` (or what caused it: the group commit wraps a rolled-back group's error)
 * is the disk or the database's page limit being full: SQLite's SQLITE_FULL, a file
 * write's ENOSPC, or a quota's EDQUOT.
 */
export function isDiskFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'disk_full') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

export function diskFullError(): ServiceError {
  return new ServiceError('disk_full', DISK_FULL_MESSAGE);
}

/** Runs `work`; a full disk becomes the `disk_full` refusal, anything else passes as it was. */
export async function refusingWhenFull<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDiskFull(error)) throw diskFullError();
    throw error;
  }
}
