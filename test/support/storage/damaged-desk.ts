import fs from 'node:fs';
import { createHost, hostPaths } from '@src/main/host/create-host';

const PAGE = 4096;

export const person = (n: number) => ({ first_name: `Rec${n}`, last_name: 'Covery', date_of_birth: '1970-02-03' });

/** A desk in `dataDir` with `n` patients, all in the main file (checkpointed), their outbox entries unsent. */
export async function deskWith(dataDir: string, n: number): Promise<string[]> {
  const host = createHost({ dataDir, localApi: false, hotFolder: false });
  const ids: string[] = [];
  try {
    for (let i = 0; i < n; i += 1) ids.push((await host.bridge['patients.create'](person(i))).id);
    host.database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    await host.close();
  }
  return ids;
}

/** Flips one byte in the middle of a page near the end of the closed database (a page of records, not the header). */
export function flipByteInAPage(dataDir: string): void {
  const file = hostPaths(dataDir).database;
  const bytes = fs.readFileSync(file);
  const pages = bytes.length / PAGE;
  if (pages < 20) throw new Error(`The desk's file has ${pages} pages: too few to damage one of records`);
  bytes[(pages - 3) * PAGE + 1000] ^= 0xff;
  fs.writeFileSync(file, bytes);
}
