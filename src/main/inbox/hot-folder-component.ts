import type { HostComponent } from '../host/create-host';
import { createHotFolder, type HotFolder, type HotFolderDeps } from './hot-folder';

export interface HotFolderComponent extends HostComponent {
  /** The folder being watched, or null while stopped. */
  dir(): string | null;
  /** Watches the folder `dirOf()` names now, if it changed (a new folder saved in Settings). */
  reload(): Promise<void>;
}

/**
 * The hot folder as a host component. The folder is decided at start and on reload (it
 * may come from Settings); the hot folder makes its subfolders when built, so it is built
 * only when started.
 */
export function createHotFolderComponent(deps: Omit<HotFolderDeps, 'dir'> & { dirOf: () => string }): HotFolderComponent {
  let folder: HotFolder | undefined;
  let watching: string | null = null;

  async function start(): Promise<void> {
    watching = deps.dirOf();
    folder = createHotFolder({ ...deps, dir: watching });
    folder.start();
  }

  async function stop(): Promise<void> {
    await folder?.stop();
    folder = undefined;
    watching = null;
  }

  return {
    name: 'hot-folder',
    start,
    stop,
    dir: () => watching,
    async reload() {
      if (!folder || deps.dirOf() === watching) return;
      await stop();
      await start();
    },
  };
}
