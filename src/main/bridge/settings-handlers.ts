import { testConnection, type ConnectionTestDeps } from '../http/connection-test';
import type { HotFolderComponent } from '../inbox/hot-folder-component';
import type { SettingsStore } from '../settings/settings-store';
import type { SyncComponent } from '../sync/sync-component';
import type { DeskSettings, DeskSettingsUpdate } from '../../shared/bridge/desk-contract';
import { ServiceError } from '../../shared/service-error';
import type { HandlersFor } from './handlers';

/** Settings the desk sees and changes. The API key is stored, never sent back. */
export function settingsHandlers(deps: {
  settings: SettingsStore;
  sync: SyncComponent;
  hotFolder?: Pick<HotFolderComponent, 'reload'>;
  /** How a new API key is tried before it is saved; absent, keys are saved untried. */
  keyProbe?: ConnectionTestDeps;
  /** Told the settings as saved, for every open screen. */
  onChange?: (settings: DeskSettings) => void;
}): HandlersFor<'settings.get' | 'settings.update' | 'settings.testConnection'> {
  const current = (): DeskSettings => {
    const saved = deps.settings.read();
    return {
      ...deps.sync.upstreamSettings(),
      default_provider_id: saved.default_provider_id,
      hot_folder: saved.hot_folder,
      default_service_type: saved.default_service_type,
      waiting: deps.sync.waiting(),
    };
  };
  return {
    'settings.get': async () => current(),
    'settings.update': async (change) => {
      refuseUnconfirmedSwitch(deps, change);
      await refuseRefusedKey(deps, change);
      const { upstreamTouched } = deps.settings.update(change);
      if (upstreamTouched) await deps.sync.reconnect();
      if (change.hot_folder !== undefined) await deps.hotFolder?.reload();
      const saved = current();
      deps.onChange?.(saved);
      // Saving the service or its key is how a desk says "use this": say at once whether it works.
      return { ...saved, connection: upstreamTouched ? await deps.sync.testConnection() : null };
    },
    'settings.testConnection': async () => deps.sync.testConnection(),
  };
}

/**
 * A new API key is tried on the service it is for before it is saved: a key the service
 * refuses (401/403) would otherwise replace the working one and take the desk off the
 * service. Refused, nothing is saved and the desk keeps the key it had. Any other outcome
 * (not reachable, failing right now) saves it as before: a desk may be set up offline.
 */
async function refuseRefusedKey(deps: { sync: SyncComponent; keyProbe?: ConnectionTestDeps }, change: DeskSettingsUpdate): Promise<void> {
  if (!deps.keyProbe || !change.api_key) return;
  const now = deps.sync.upstreamSettings();
  const url = change.upstream_url !== undefined ? change.upstream_url : now.mode === 'upstream' ? now.upstream_url : null;
  if (!url) return;
  const tried = await testConnection(deps.keyProbe, { mode: 'upstream', baseUrl: url, apiKey: change.api_key, shownUrl: url });
  if (tried.state !== 'wrong_key') return;
  const kept = now.mode === 'upstream' && now.api_key_set ? 'the desk keeps using the key saved before' : 'no key was saved';
  throw new ServiceError(
    'api_key_refused',
    `Wrong API key: the service at ${url} refused it (HTTP ${tried.http_status}). Nothing was saved; ${kept}. Check the key with whoever runs the service, then save it again.`,
    [{ path: 'api_key', code: 'refused', message: 'api_key was refused by the service: check it and type it again.' }],
    { status: 422, type: 'invalid_request_error' },
  );
}

const sameUrl = (a: string | null, b: string | null) => (a ?? '').replace(/\/+$/, '') === (b ?? '').replace(/\/+$/, '');

/**
 * Records queued on this computer go to whichever service is configured when they are
 * sent. Moving to another service (sandbox ↔ real, or between real ones) while some wait
 * would send them there, so the change must say the desk was told; otherwise nothing is
 * saved and the answer says how many wait, where, and what would happen to them.
 */
function refuseUnconfirmedSwitch(deps: { settings: SettingsStore; sync: SyncComponent }, change: DeskSettingsUpdate): void {
  if (change.upstream_url === undefined || change.send_waiting_to_new_service) return;
  const waiting = deps.sync.waiting();
  if (waiting.count === 0) return;
  const now = deps.sync.upstreamSettings();
  if (sameUrl(now.mode === 'upstream' ? now.upstream_url : null, change.upstream_url)) return;
  const from = waiting.mode === 'sandbox' ? 'the sandbox' : waiting.upstream_url;
  const to = change.upstream_url === null ? 'the sandbox' : change.upstream_url;
  const records = waiting.count === 1 ? '1 record is' : `${waiting.count} records are`;
  const message = `${records} still waiting to be sent to ${from}. If you switch now, ${waiting.count === 1 ? 'it' : 'they'} will be sent to ${to} instead. Switch only if that is what you want, or wait until Sync shows nothing waiting.`;
  throw new ServiceError(
    'upstream_switch_unconfirmed',
    message,
    [{ path: 'send_waiting_to_new_service', code: 'required', message: 'send_waiting_to_new_service must be true to switch services while records wait to be sent.' }],
    { status: 409, type: 'invalid_request_error' },
  );
}
