import { describe, expect, it, vi } from 'vitest';
import { APP_ORIGIN } from '@src/main/shell/app-protocol';
import { isAllowedExternalUrl } from '@src/main/shell/external-links';
import { applyNavigationPolicy } from '@src/main/shell/navigation-policy';
import { asWebContents, fakeWebContents, navigationEvent } from './fake-electron';

function guarded() {
  const contents = fakeWebContents();
  const openExternal = vi.fn(async (_url: string) => undefined);
  applyNavigationPolicy(asWebContents(contents), { appOrigins: [APP_ORIGIN], openExternal });
  return { contents, openExternal };
}

describe('navigation policy', () => {
  it('blocks navigating away from the app; an https link opens in the browser instead', () => {
    const { contents, openExternal } = guarded();
    const away = navigationEvent();
    contents.emit('will-navigate', away, 'https://payer.example/eligibility');
    expect(away.defaultPrevented).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://payer.example/eligibility');

    for (const url of ['file:///etc/passwd', 'http://payer.example/', 'javascript:alert(1)', 'smb://server/share', 'ms-msdt:/id PCWDiagnostic']) {
      const event = navigationEvent();
      contents.emit('will-navigate', event, url);
      expect(event.defaultPrevented, url).toBe(true);
    }
    expect(openExternal).toHaveBeenCalledTimes(1);

    // Electron 45's form: the URL on the event itself.
    const modern = navigationEvent('file:///C:/Windows/win.ini');
    contents.emit('will-navigate', modern);
    expect(modern.defaultPrevented).toBe(true);
  });

  it('lets the app move within its own origin', () => {
    const { contents, openExternal } = guarded();
    const inside = navigationEvent();
    contents.emit('will-navigate', inside, `${APP_ORIGIN}/index.html#/today`);
    expect(inside.defaultPrevented).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('blocks redirects and frame navigations to other origins, and every <webview>', () => {
    const { contents } = guarded();
    const redirect = navigationEvent();
    contents.emit('will-redirect', redirect, 'https://evil.example/');
    expect(redirect.defaultPrevented).toBe(true);
    const frame = navigationEvent('https://evil.example/frame');
    contents.emit('will-frame-navigate', frame);
    expect(frame.defaultPrevented).toBe(true);
    const ownFrame = navigationEvent(`${APP_ORIGIN}/index.html`);
    contents.emit('will-frame-navigate', ownFrame);
    expect(ownFrame.defaultPrevented).toBe(false);
    const webview = navigationEvent();
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.defaultPrevented).toBe(true);
  });

  it('denies every new window; only an https link is handed to the browser', () => {
    const { contents, openExternal } = guarded();
    const open = contents.windowOpenHandler!;
    expect(open({ url: 'https://www.cms.gov/' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://www.cms.gov/');
    for (const url of [`${APP_ORIGIN}/index.html`, 'http://example.com/', 'file:///C:/Windows/System32/calc.exe', 'about:blank', 'javascript:void 0']) {
      expect(open({ url }), url).toEqual({ action: 'deny' });
    }
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
});

describe('the external-link allow-list', () => {
  it.each([
    ['https://www.cms.gov/medicare', true],
    ['HTTPS://Example.com/a?b=c', true],
    ['http://example.com/', false],
    ['https://user:pass@example.com/', false],
    ['https://user@example.com/', false],
    ['file:///etc/passwd', false],
    ['mailto:front@clinic.example', false],
    ['javascript:alert(1)', false],
    ['app://coverdesk/index.html', false],
    ['//example.com', false],
    ['', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedExternalUrl(url)).toBe(allowed);
  });
});
