import { SyncState } from '../../shared/contract';

/**
 * The outbox states an entry waits in (every state but synced), as an SQL list. Queries name
 * them (`state IN (…)`) rather than `state != 'synced'`: a `!=` cannot use the outbox's state
 * index, so it reads every entry of the last week, payloads too (119 ms at 100,000 entries),
 * where the named states read only the few still waiting.
 */
export const WAITING_STATES_SQL = SyncState.options
  .filter((state) => state !== 'synced')
  .map((state) => `'${state}'`)
  .join(', ');
