import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The one set of preferences every Coverdesk window is made from. The renderer is
 * untrusted as far as the main process is concerned: no Node, its own JavaScript world,
 * the OS sandbox, and the same-origin policy on.
 */
export function secureWebPreferences(options: { preload: string; devTools: boolean }): WebPreferences {
  return {
    preload: options.preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    // Middle-click opens links in new windows; the window-open policy denies those anyway.
    disableBlinkFeatures: 'Auxclick',
    // Patient names are not dictionary words, and the dictionaries would be downloaded.
    spellcheck: false,
    // Developer tools read everything on screen; only unpackaged (development) builds get them.
    devTools: options.devTools,
  };
}

export function mainWindowOptions(webPreferences: WebPreferences): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 860,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: 'Coverdesk',
    backgroundColor: '#ffffff',
    webPreferences,
  };
}
