import { afterEach } from 'vitest';
import type { Host } from '@src/main/host/create-host';
import { makeTempDir } from '@test/support/temp-dir';

/**
 * Hosts and temporary folders a backup test makes, closed and removed after each test (hosts
 * first: a folder is removed only once nothing has it open).
 */
export function closedAfterEach(): { tempDir(prefix: string): string; keep(host: Host): Host } {
  const temps: { cleanup(): void }[] = [];
  const hosts: Host[] = [];
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
    for (const temp of temps.splice(0)) temp.cleanup();
  });
  return {
    tempDir(prefix) {
      const temp = makeTempDir(prefix);
      temps.push(temp);
      return temp.dir;
    },
    keep(host) {
      hosts.push(host);
      return host;
    },
  };
}
