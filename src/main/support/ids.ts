import { monotonicFactory } from 'ulid';
import type { IdPrefix } from '../../shared/contract';
import type { Clock } from './clock';

/** Injected so tests control ids (and can make one fail to prove atomicity). */
export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

/** `<prefix>_<ULID>`: sortable by creation time, so lists page by id. */
export function createIdGenerator(clock: Clock): IdGenerator {
  const ulid = monotonicFactory();
  return { next: (prefix) => `${prefix}_${ulid(clock.now().getTime())}` };
}
