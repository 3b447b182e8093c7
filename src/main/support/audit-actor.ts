import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who the work in progress is done for, when it is not the audit log's own actor: a local
 * API request made with a named integration's token. Carried through the request's awaits,
 * so every entry the request leads to names the integration without each layer passing it.
 */
const acting = new AsyncLocalStorage<string>();

export function actingAs<T>(actor: string, fn: () => T): T {
  return acting.run(actor, fn);
}

/** The actor of the work in progress, if someone other than the log's own. */
export function currentActor(): string | undefined {
  return acting.getStore();
}
