import { eq, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/open-database';

/**
 * Prepared statements, built once per database and table. Building a Drizzle query costs
 * about 120 µs, twenty times the SQLite work of a lookup by id, and a create makes several:
 * on the hot path we build each shape once and only bind values.
 */
const cache = new WeakMap<Db, Map<string, unknown>>();

/** Builds a statement the first time `key` is asked for on this database, then reuses it. */
export function preparedOnce<T>(db: Db, key: string, build: () => T): T {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  if (!statements.has(key)) statements.set(key, build());
  return statements.get(key) as T;
}

type TableWithId = SQLiteTable & { id: Parameters<typeof eq>[0] };

export function findById<T extends TableWithId>(db: Db, name: string, table: T): (id: string) => T['$inferSelect'] | undefined {
  const statement = preparedOnce(db, `find:${name}`, () =>
    db
      .select()
      .from(table as SQLiteTable)
      .where(eq(table.id, sql.placeholder('id')))
      .prepare(),
  );
  return (id) => statement.get({ id }) as T['$inferSelect'] | undefined;
}

/**
 * An insert of every column; absent values are bound as NULL. Built once per table, on the
 * connection itself: each value goes through its column's own Drizzle encoder (JSON columns
 * as text), as Drizzle's prepared insert binds it, without rebuilding its parameter list
 * for every row of a create.
 */
export function insertRow<T extends SQLiteTable>(db: Db, name: string, table: T): (row: T['$inferInsert']) => void {
  return preparedOnce(db, `insert:${name}`, () => {
    const columns = Object.entries(getTableColumns(table));
    const statement = db.$client.prepare(
      `INSERT INTO "${getTableName(table)}" (${columns.map(([, column]) => `"${column.name}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    return (row: T['$inferInsert']) => {
      statement.run(columns.map(([key, column]) => column.mapToDriverValue((row as Record<string, unknown>)[key] ?? null)));
    };
  });
}
