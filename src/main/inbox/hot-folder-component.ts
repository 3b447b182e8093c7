import type { HostComponent } from '../support/host-component';
import { createHotFolder, type HotFolder, type HotFolderDeps } from './hot-folder';

export interface HotFolderComponent extends HostComponent {
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
  let active = false;
  /** Reloads one at a time: two overlapping ones would each build a watcher and leak one. */
  let switching: Promise<void> = Promise.resolve();

  function open(): void {
    const dir = deps.dirOf();
    folder = createHotFolder({ ...deps, dir });
    folder.start();
    watching = dir;
  }

  async function close(): Promise<void> {
    const current = folder;
    folder = undefined;
    watching = null;
    await current?.stop();
  }

  return {
    name: 'hot-folder',
    async start() {
      active = true;
      try {
        open();
      } catch (error) {
        // A saved folder that is gone (an unmounted share, a removed drive) must not stop
        // the desk from starting; saving a folder that works in Settings watches it.
        folder = undefined;
        deps.log?.(`hot folder: not watching (${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.name : 'unknown')})`);
      }
    },
    async stop() {
      active = false;
      await switching;
      await close();
    },
    reload() {
      const next = switching.then(async () => {
        if (!active || (folder && deps.dirOf() === watching)) return;
        await close();
        // Thrown to the caller: Settings says the folder it just saved cannot be used.
        if (active) open();
      });
      switching = next.catch(() => undefined);
      return next;
    },
  };
}
