import fs from 'node:fs';
import type { HostComponent } from '../support/host-component';

/** Under this much free space the desk is warned, before a write is refused (docs/decisions.md, Storage). */
export const LOW_DISK_MARGIN_BYTES = 500 * 1024 * 1024;
const CHECK_EVERY_MS = 60_000;

export type FreeSpace = (dir: string) => Promise<number>;

/** Bytes an unprivileged user may still write on the file system holding `dir`. */
export const freeSpace: FreeSpace = async (dir) => {
  const stats = await fs.promises.statfs(dir);
  return Number(stats.bavail) * Number(stats.bsize);
};

export interface DiskSpaceDeps {
  dir: string;
  freeSpace?: FreeSpace;
  marginBytes?: number;
  intervalMs?: number;
  /** The answer changed: the host tells the desk (the banner). */
  onChange?(low: boolean): void;
  log?(event: string, fields: Record<string, string | number>): void;
}

export interface DiskSpaceMonitor extends HostComponent {
  /** Whether the last look found less free space than the margin. */
  low(): boolean;
  /** Looks now (also every minute once started). */
  check(): Promise<boolean>;
}

export function createDiskSpaceMonitor(deps: DiskSpaceDeps): DiskSpaceMonitor {
  const margin = deps.marginBytes ?? LOW_DISK_MARGIN_BYTES;
  const measure = deps.freeSpace ?? freeSpace;
  let low = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  async function check(): Promise<boolean> {
    let free: number;
    try {
      free = await measure(deps.dir);
    } catch (error) {
      // A file system that cannot say (a network share): no warning rather than a false one.
      deps.log?.('disk.statfs_failed', { error: error instanceof Error ? (error as NodeJS.ErrnoException).code ?? error.name : 'unknown' });
      return low;
    }
    const now = free < margin;
    if (now !== low) {
      low = now;
      deps.log?.(low ? 'disk.space_low' : 'disk.space_ok', { free_mb: Math.floor(free / 1024 / 1024), margin_mb: Math.floor(margin / 1024 / 1024) });
      deps.onChange?.(low);
    }
    return low;
  }

  return {
    name: 'disk_space',
    low: () => low,
    check,
    async start() {
      await check();
      timer = setInterval(() => void check(), deps.intervalMs ?? CHECK_EVERY_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
    },
  };
}
