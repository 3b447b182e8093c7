import fs from 'node:fs';
import { createHost, hostPaths, type Host, type HostOptions } from '../../src/main/host/create-host';
import { makeTempDir } from './temp-dir';

export interface HostFixture {
  host: Host;
  dataDir: string;
  /** Row counts of every table plus the photo files: equal snapshots mean nothing was written. */
  snapshot(): Record<string, number | string[]>;
  reopen(): Host;
  cleanup(): Promise<void>;
}

export function startTestHost(options: Partial<HostOptions> = {}): HostFixture {
  const temp = makeTempDir();
  const dataDir = options.dataDir ?? temp.dir;
  let host = createHost({ ...options, dataDir });
  return {
    get host() {
      return host;
    },
    dataDir,
    snapshot() {
      const tables = host.database.sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'")
        .all() as { name: string }[];
      const counts: Record<string, number | string[]> = {};
      for (const { name } of tables) {
        counts[name] = (host.database.sqlite.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
      }
      const photosDir = hostPaths(dataDir).photos;
      counts.photo_files = fs.existsSync(photosDir) ? fs.readdirSync(photosDir).sort() : [];
      return counts;
    },
    reopen() {
      void host.close();
      host = createHost({ ...options, dataDir });
      return host;
    },
    async cleanup() {
      await host.close();
      temp.cleanup();
    },
  } as HostFixture;
}
