import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { DeskSettings, SyncStatus } from '../../../shared/bridge/desk-contract';
import { useBridgeEvent } from './bridge-hooks';

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

export function DeskStatusProvider({ children }: { children: ReactNode }) {
  const [sync, setSync] = useState<SyncStatus | null>(null);
  const [settings, setSettings] = useState<DeskSettings | null>(null);

  const reload = useCallback(() => {
    void window.coverdesk.sync.status({}).then((result) => result.ok && setSync(result.value));
    void window.coverdesk.settings.get({}).then((result) => result.ok && setSettings(result.value));
  }, []);

  useEffect(() => {
    reload();
    // The event carries every change; this only catches a host that is missing the worker.
    const timer = setInterval(reload, 15_000);
    return () => clearInterval(timer);
  }, [reload]);

  useBridgeEvent('sync.status', setSync);

  return <DeskStatusContext.Provider value={{ sync, settings, reload }}>{children}</DeskStatusContext.Provider>;
}

/** Sandbox mode unless the host says otherwise: sync knows first, settings as a fallback. */
export function modeOf(status: DeskStatus): 'sandbox' | 'upstream' | null {
  return status.sync?.mode ?? status.settings?.mode ?? null;
}
