import { createHash } from 'node:crypto';
import type { Db } from '@src/main/db/open-database';
import { createIdempotencyStore } from '@src/main/http/idempotency-store';
import type { SandboxService } from '@src/main/sandbox/sandbox-service';
import type { Clock } from '@src/main/support/clock';
import type { CallContext, CreatableCollection, V1Service } from '@src/shared/contract';
import { ServiceError } from '@src/shared/service-error';

/**
 * What the next write to the upstream meets:
 * - `ok`: it runs;
 * - `unreachable`: it never arrives (network error);
 * - `lost`: it runs and commits, then the answer is lost;
 * - `503`: the upstream refuses it for now;
 * - `422`: the upstream refuses it for good;
 * - `401`: the upstream refuses the credentials;
 * - `hang`: it runs and commits, and the answer never comes (the process dies waiting).
 */
export type WriteFault = 'ok' | 'unreachable' | 'lost' | '503' | '422' | '401' | 'hang';

export interface ScriptedUpstream extends V1Service {
  /** Faults for the next writes, in order; once used up, writes run normally. */
  script: WriteFault[];
  /** While down, every call (reads too) is unreachable. */
  down: boolean;
  /** Idempotency keys whose last answer was a 422 (the entries that should now be failed). */
  refused: Set<string>;
  /** Creates that committed, by key: more than one commit per key would be a duplicate. */
  commits: Map<string, number>;
}

const unreachable = () => new ServiceError('upstream_unreachable', 'The upstream service could not be reached.', undefined, { status: 0 });

/**
 * The real sandbox service in-process, behind the real idempotency store, with faults
 * scripted per write: the model-based test's upstream, where the crash and each fault
 * must land on exactly the call the test chose.
 */
export function createScriptedUpstream(deps: { sandbox: SandboxService; db: Db; clock: Clock }): ScriptedUpstream {
  const idempotency = createIdempotencyStore({ db: deps.db, clock: deps.clock });
  const upstream: ScriptedUpstream = {
    script: [],
    down: false,
    refused: new Set(),
    commits: new Map(),

    async create<K extends CreatableCollection>(collection: K, input: Parameters<V1Service['create']>[1], context: CallContext) {
      if (upstream.down) throw unreachable();
      const fault = upstream.script.shift() ?? 'ok';
      const key = context.idempotency_key!;
      if (fault === 'unreachable') throw unreachable();
      if (fault === '503') throw new ServiceError('service_unavailable', 'Unavailable (scripted).');
      if (fault === '401') throw new ServiceError('unauthorized', 'Bad key (scripted).');
      if (fault === '422') {
        upstream.refused.add(key);
        throw new ServiceError('validation_failed', 'Refused (scripted).');
      }
      upstream.refused.delete(key);
      const hash = createHash('sha256').update(JSON.stringify(input)).digest('hex');
      const begun = await idempotency.begin(collection, key, hash);
      let body: string;
      if (begun.kind === 'replay') body = begun.body;
      else if (begun.kind === 'new') {
        const created = await deps.sandbox.create(collection, input as never, { source: 'api' });
        body = JSON.stringify(created);
        await idempotency.store(collection, key, 201, body);
        upstream.commits.set(key, (upstream.commits.get(key) ?? 0) + 1);
      } else {
        throw new ServiceError(begun.kind === 'conflict' ? 'idempotency_key_reused' : 'idempotency_request_in_progress', 'Idempotency (scripted).');
      }
      if (fault === 'lost') throw unreachable();
      if (fault === 'hang') return new Promise<never>(() => {});
      return JSON.parse(body);
    },

    async uploadPhoto(photo) {
      if (upstream.down) throw unreachable();
      const fault = upstream.script.shift() ?? 'ok';
      if (fault === 'unreachable') throw unreachable();
      if (fault === '503') throw new ServiceError('service_unavailable', 'Unavailable (scripted).');
      if (fault === '401') throw new ServiceError('unauthorized', 'Bad key (scripted).');
      // Photos are content-addressed: the same bytes twice are one photo, so no key is needed.
      const stored = await deps.sandbox.uploadPhoto(photo);
      if (fault === 'lost') throw unreachable();
      if (fault === 'hang') return new Promise<never>(() => {});
      return stored;
    },

    async get(collection, id) {
      if (upstream.down) throw unreachable();
      return deps.sandbox.get(collection, id);
    },
    async list(collection, params) {
      if (upstream.down) throw unreachable();
      return deps.sandbox.list(collection, params);
    },
    async readPhoto(key) {
      if (upstream.down) throw unreachable();
      return deps.sandbox.readPhoto(key);
    },
  };
  return upstream;
}
