import { createHash, randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { inTransaction, inTransactionWithoutFsync, type Db } from '../db/open-database';
import { integration_tokens } from '../db/schema';
import type { AuditLog } from '../audit/audit-log';
import type { Clock } from '../support/clock';
import type { IdGenerator } from '../support/ids';
import { AddIntegrationInput, RevokeIntegrationInput, type Integration } from '../../shared/bridge/desk-contract';
import { ID_PREFIX, toTimestamp } from '../../shared/contract';
import { parseOrThrow, ServiceError } from '../../shared/service-error';

export interface IntegrationTokenDeps {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  /** Making and revoking a token are audited as the desk's own actions. */
  audit: AuditLog;
}

/** How stale "last used" may get: a busy scanner must not cost a write per request. */
const LAST_USED_EVERY_MS = 60_000;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

function toIntegration(row: typeof integration_tokens.$inferSelect): Integration {
  return { id: row.id, name: row.name, created_at: row.created_at, last_used_at: row.last_used_at, revoked_at: row.revoked_at };
}

/**
 * One bearer token per integration, each named by the practice (issue 28, item 6), so the
 * audit says which program did what and one program can be cut off without the others. Only
 * a token's SHA-256 is kept: a token has 256 random bits, so the lookup by its hash leaks
 * nothing a timing could use, and a copy of the database lets no one call the API.
 */
export function createIntegrationTokens(deps: IntegrationTokenDeps) {
  const { db } = deps;
  const now = () => toTimestamp(deps.clock.now());
  const byHash = db.$client.prepare('SELECT id, name, last_used_at FROM integration_tokens WHERE token_sha256 = ? AND revoked_at IS NULL');
  const touched = new Map<string, number>();

  return {
    list(): Integration[] {
      return db.select().from(integration_tokens).orderBy(desc(integration_tokens.created_at), desc(integration_tokens.id)).all().map(toIntegration);
    },

    /** A new token for `name`; the token is in this answer and nowhere else, ever. */
    add(input: unknown): { integration: Integration; token: string } {
      const { name } = parseOrThrow(AddIntegrationInput, input);
      const token = randomBytes(32).toString('hex');
      const row = { id: deps.ids.next(ID_PREFIX.integration), name, token_sha256: sha256(token), created_at: now(), last_used_at: null, revoked_at: null };
      inTransaction(db, () => {
        db.insert(integration_tokens).values(row).run();
        deps.audit.append('create', row.id);
      });
      return { integration: toIntegration(row), token };
    },

    /** The token stops working at once; the integration stays listed (the audit names it). */
    revoke(input: unknown): Integration {
      const { id } = parseOrThrow(RevokeIntegrationInput, input);
      return inTransaction(db, () => {
        const row = db.select().from(integration_tokens).where(eq(integration_tokens.id, id)).get();
        if (!row) throw new ServiceError('resource_not_found', `There is no integration ${id}.`);
        if (row.revoked_at) return toIntegration(row);
        const revoked = { ...row, revoked_at: now() };
        db.update(integration_tokens).set({ revoked_at: revoked.revoked_at }).where(eq(integration_tokens.id, id)).run();
        deps.audit.append('revoke', id);
        return toIntegration(revoked);
      });
    },

    /** The integration a bearer token belongs to, or null (unknown or revoked). */
    verify(token: string): { id: string; name: string } | null {
      const row = byHash.get(sha256(token)) as { id: string; name: string } | undefined;
      if (!row) return null;
      const at = deps.clock.now().getTime();
      if (at - (touched.get(row.id) ?? 0) >= LAST_USED_EVERY_MS) {
        touched.set(row.id, at);
        // Losing "last used" to a power cut costs nothing: no fsync for it.
        inTransactionWithoutFsync(db, () => db.update(integration_tokens).set({ last_used_at: toTimestamp(new Date(at)) }).where(eq(integration_tokens.id, row.id)).run());
      }
      return { id: row.id, name: row.name };
    },
  };
}

export type IntegrationTokens = ReturnType<typeof createIntegrationTokens>;
