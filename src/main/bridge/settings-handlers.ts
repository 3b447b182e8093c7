import type { HotFolderComponent } from '../inbox/hot-folder-component';
import type { SettingsStore } from '../settings/settings-store';
import type { SyncComponent } from '../sync/sync-component';
import type { DeskSettings } from '../../shared/bridge/desk-contract';
import type { HandlersFor } from './handlers';

/** Settings the desk sees and changes. The API key is stored, never sent back. */
export function settingsHandlers(deps: {
  settings: SettingsStore;
  sync: SyncComponent;
  hotFolder?: Pick<HotFolderComponent, 'reload'>;
}): HandlersFor<'settings.get' | 'settings.update'> {
  const current = (): DeskSettings => {
    const saved = deps.settings.read();
    return { ...deps.sync.upstreamSettings(), default_provider_id: saved.default_provider_id, hot_folder: saved.hot_folder };
  };
  return {
    'settings.get': async () => current(),
    'settings.update': async (change) => {
      const { upstreamTouched } = deps.settings.update(change);
      if (upstreamTouched) await deps.sync.reconnect();
      if (change.hot_folder !== undefined) await deps.hotFolder?.reload();
      return current();
    },
  };
}
