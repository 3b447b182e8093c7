/**
 * A part of the host that runs in the background once started (sync worker, local API,
 * hot folder, embedded sandbox). Built by createHost, started by `host.start()`, stopped
 * in reverse order by `host.close()`. Its own module so the components need not import
 * the composition root that imports them.
 */
export interface HostComponent {
  name: string;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}
