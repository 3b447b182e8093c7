import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { IdPrefix } from '../../shared/contract';
import type { Clock } from './clock';

/** Injected so tests control ids (and can make one fail to prove atomicity). */
export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

/** `<prefix>_<ULID>`: sortable by creation time, so lists page by id. */
export function createIdGenerator(clock: Clock): IdGenerator {
  const ulid = monotonicFactory(pooledRandom());
  return { next: (prefix) => `${prefix}_${ulid(clock.now().getTime())}` };
}

/**
 * ulid's default draws one crypto byte per character, sixteen crypto calls per id;
 * the same crypto bytes drawn a pool at a time cost a fraction, on every create's path.
 */
function pooledRandom(size = 512): () => number {
  const pool = Buffer.alloc(size);
  let next = size;
  return () => {
    if (next === size) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++] / 256;
  };
}
