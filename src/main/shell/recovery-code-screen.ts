import type { BrowserWindowConstructorOptions, WebContents } from 'electron';
import type { AskRecoveryCode, RecoveryCodePrompt } from '../security/desk-key-start';
import { APP_ORIGIN } from './app-protocol';
import { secureWebPreferences } from './web-preferences';

/**
 * The desktop app's one screen before the desk opens when the OS key store has lost its key
 * (issue 28, item 5): the recovery code asked, the refusal shown for another try. A plain page
 * with no script and no preload: the form's GET navigation to `RECOVERY_CODE_ACTION` carries
 * the code, and the main process takes it from `will-navigate` and stops the navigation (the
 * app:// origin passes the navigation policy; nothing is ever loaded from it).
 */
export const RECOVERY_CODE_ACTION = `${APP_ORIGIN}/recovery-code`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The screen's page. The message and the refusal are the host's words, escaped; the code is never put in the page. */
export function recoveryCodePage(prompt: RecoveryCodePrompt): string {
  const error = prompt.error === null ? '' : `<p id="error" role="alert">${escapeHtml(prompt.error)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Coverdesk: recovery code</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; padding: 32px 40px; color: #1b1f24; background: #fff; }
h1 { font-size: 20px; margin: 0 0 12px; }
label { display: block; font-weight: 600; margin: 20px 0 6px; }
input { font: 18px ui-monospace, monospace; letter-spacing: 0.06em; width: 100%; box-sizing: border-box; padding: 8px 10px; border: 1px solid #8a949e; border-radius: 4px; }
input:focus { outline: 3px solid #3b7bd6; outline-offset: 1px; }
.hint { color: #4b5560; font-size: 13px; margin: 6px 0 0; }
#error { color: #a1260d; background: #fdecea; border-left: 4px solid #a1260d; padding: 8px 12px; margin: 16px 0 0; }
.actions { margin-top: 20px; }
button { font: inherit; padding: 8px 18px; border-radius: 4px; border: 1px solid #1d5fbf; background: #1d5fbf; color: #fff; cursor: pointer; }
</style></head>
<body>
<h1>Open the desk with its recovery code</h1>
<p>${escapeHtml(prompt.message)}</p>
${error}
<form method="get" action="${RECOVERY_CODE_ACTION}">
<label for="code">Recovery code</label>
<input id="code" name="code" required autofocus autocomplete="off" spellcheck="false" autocapitalize="characters" maxlength="60"
  placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX"${prompt.error === null ? '' : ' aria-describedby="error" aria-invalid="true"'}>
<p class="hint">Six groups of four letters and digits from the recovery sheet; spaces, dashes and capitals do not matter. Closing this window quits Coverdesk and changes nothing.</p>
<div class="actions"><button type="submit">Open the desk</button></div>
</form>
</body></html>`;
}

/** The few parts of a BrowserWindow the screen uses. */
export interface RecoveryWindow {
  webContents: Pick<WebContents, 'on'>;
  loadURL(url: string): Promise<void>;
  once(event: 'closed', listener: () => void): unknown;
  show(): void;
  close(): void;
  isDestroyed(): boolean;
}

export function recoveryWindowOptions(): BrowserWindowConstructorOptions {
  // No preload: the page talks to nothing but its own form.
  const { preload: _none, ...webPreferences } = secureWebPreferences({ preload: '', devTools: false });
  return { width: 620, height: 460, resizable: true, show: false, title: 'Coverdesk: recovery code', backgroundColor: '#ffffff', webPreferences };
}

/**
 * The screen as an `AskRecoveryCode`: one window, opened at the first question, its page
 * reloaded with each refusal; `close()` once the desk is open. Closing the window answers null.
 */
export function recoveryCodeScreen(deps: { openWindow(options: BrowserWindowConstructorOptions): RecoveryWindow }): { ask: AskRecoveryCode; close(): void } {
  let window: RecoveryWindow | null = null;
  let answer: ((code: string | null) => void) | null = null;
  const settle = (code: string | null) => {
    const pending = answer;
    answer = null;
    pending?.(code);
  };
  const open = (): RecoveryWindow => {
    const made = deps.openWindow(recoveryWindowOptions());
    made.webContents.on('will-navigate', (event, url) => {
      const target = (event as { url?: string }).url ?? url;
      // The form's submission, or anything else: the page never leaves itself.
      event.preventDefault();
      if (!target.startsWith(`${RECOVERY_CODE_ACTION}?`)) return;
      settle(new URL(target).searchParams.get('code') ?? '');
    });
    made.once('closed', () => {
      window = null;
      settle(null);
    });
    return made;
  };
  return {
    ask(prompt) {
      window ??= open();
      const shown = window;
      return new Promise((resolve) => {
        answer = resolve;
        void shown.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(recoveryCodePage(prompt))}`).then(
          () => shown.show(),
          () => shown.show(),
        );
      });
    },
    close() {
      if (window && !window.isDestroyed()) window.close();
      window = null;
    },
  };
}
