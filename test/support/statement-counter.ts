import type Database from 'better-sqlite3';

/**
 * Records the SQL of every statement a connection runs while `work` does, by wrapping the
 * methods that execute a prepared statement (better-sqlite3 shares one Statement prototype).
 * Counting statements and the tables they read shows the cost of a read model without timing it.
 */
export function statementsRun<T>(sqlite: Database.Database, work: () => T): { result: T; sql: string[] } {
  const { sql, stop } = recordStatements(sqlite);
  try {
    return { result: work(), sql };
  } finally {
    stop();
  }
}

/** The same, for work that answers later (a bridge call): everything run until it has answered. */
export async function statementsRunAsync<T>(sqlite: Database.Database, work: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const { sql, stop } = recordStatements(sqlite);
  try {
    return { result: await work(), sql };
  } finally {
    stop();
  }
}

function recordStatements(sqlite: Database.Database): { sql: string[]; stop(): void } {
  const prototype = Object.getPrototypeOf(sqlite.prepare('SELECT 1')) as Record<string, unknown>;
  const methods = ['all', 'get', 'run', 'iterate'] as const;
  const originals = methods.map((name) => prototype[name] as (...args: unknown[]) => unknown);
  const sql: string[] = [];
  methods.forEach((name, i) => {
    prototype[name] = function (this: Database.Statement, ...args: unknown[]) {
      sql.push(this.source);
      return originals[i].apply(this, args);
    };
  });
  return {
    sql,
    stop: () =>
      methods.forEach((name, i) => {
        prototype[name] = originals[i];
      }),
  };
}

/** The statements among `sql` that name `table` (as a whole word, so `patients` is not `patients_fts`). */
export function reading(sql: readonly string[], table: string): string[] {
  const word = new RegExp(`\\b${table}\\b(?!_)`);
  return sql.filter((text) => word.test(text));
}
