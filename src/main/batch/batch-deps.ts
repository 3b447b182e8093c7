import type { AppointmentDeps } from '../appointments/appointment-import';

/** What a day's batch of checks needs: the appointment deps (settings, practice defaults, clock, ids). */
export interface BatchDeps extends Omit<AppointmentDeps, 'onChange'> {
  /** Told after checks are created (the sync worker wakes on it) and when progress moves. */
  onChange?(change: { collection: 'electronic_eligibility_checks'; id: string }): void;
  onProgress?(date: string): void;
  /** Each check the batch makes sends PHI to a payer: audited as a create in its own transaction. */
  audit?: { append(action: 'create', recordId: string): unknown };
}
