import { createHost, hostPaths, type Host, type HostOptions } from '@src/main/host/create-host';
import { snapshotDatabase } from './db-snapshot';
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
      return snapshotDatabase(host.database.sqlite, hostPaths(dataDir).photos);
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
