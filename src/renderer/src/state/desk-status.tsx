import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { DeskSettings, SyncStatus } from '../../../shared/bridge/desk-contract';
import { useBridgeQuery } from '../bridge/use-bridge-query';

/** What every screen may need to know: sandbox or upstream, online or not, the settings. */
export interface DeskStatus {
  sync: SyncStatus | null;
  settings: DeskSettings | null;
  /** Read settings again after Settings saved them. */
  reload(): void;
}

const DeskStatusContext = createContext<DeskStatus>({ sync: null, settings: null, reload: () => undefined });

export function useDeskStatus(): DeskStatus {
  return useContext(DeskStatusContext);
}

// The host's `sync.status` event carries every change (the query layer writes it into this
// query); the slow poll only catches a host that is missing the worker.
const POLL_MS = 15_000;

export function DeskStatusProvider({ children }: { children: ReactNode }) {
  const { data: sync, reload: reloadSync } = useBridgeQuery('sync.status', {}, { poll: POLL_MS });
  const { data: settings, reload: reloadSettings } = useBridgeQuery('settings.get', {}, { poll: POLL_MS });
  const reload = useCallback(() => {
    reloadSync();
    reloadSettings();
  }, [reloadSync, reloadSettings]);
  const status = useMemo(() => ({ sync, settings, reload }), [sync, settings, reload]);
  return <DeskStatusContext.Provider value={status}>{children}</DeskStatusContext.Provider>;
}

/** Sandbox mode unless the host says otherwise: sync knows first, settings as a fallback. */
export function modeOf(status: DeskStatus): 'sandbox' | 'upstream' | null {
  return status.sync?.mode ?? status.settings?.mode ?? null;
}
