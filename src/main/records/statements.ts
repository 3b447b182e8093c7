import { eq, getTableColumns, sql } from 'drizzle-orm';
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

/** An insert of every column; absent values are bound as NULL. */
export function insertRow<T extends SQLiteTable>(db: Db, name: string, table: T): (row: T['$inferInsert']) => void {
  const columns = Object.keys(getTableColumns(table));
  const statement = preparedOnce(db, `insert:${name}`, () =>
    db
      .insert(table)
      .values(Object.fromEntries(columns.map((column) => [column, sql.placeholder(column)])) as T['$inferInsert'])
      .prepare(),
  );
  return (row) => {
    const values: Record<string, unknown> = {};
    for (const column of columns) values[column] = (row as Record<string, unknown>)[column] ?? null;
    statement.run(values);
  };
}
