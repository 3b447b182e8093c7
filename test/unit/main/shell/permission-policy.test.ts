import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN } from '@src/main/shell/app-protocol';
import { applyPermissionPolicy } from '@src/main/shell/permission-policy';
import { fakeSession } from './fake-electron';

function policy() {
  const fake = fakeSession();
  applyPermissionPolicy(fake.session, [APP_ORIGIN]);
  return fake;
}

describe('permission policy', () => {
  it('grants the camera to the app itself, and nothing more', async () => {
    const { request } = policy();
    expect(await request('media', { requestingUrl: APP_ENTRY_URL, mediaTypes: ['video'] })).toBe(true);
    expect(await request('media', { requestingUrl: APP_ENTRY_URL, mediaTypes: ['audio'] })).toBe(false);
    expect(await request('media', { requestingUrl: APP_ENTRY_URL, mediaTypes: ['video', 'audio'] })).toBe(false);
    expect(await request('media', { requestingUrl: APP_ENTRY_URL, mediaTypes: [] })).toBe(false);
    expect(await request('media', { requestingUrl: APP_ENTRY_URL })).toBe(false);
  });

  it('refuses the camera to any other origin or to a subframe', async () => {
    const { request } = policy();
    for (const requestingUrl of ['https://evil.example/', 'file:///C:/page.html', 'app://coverdesk.evil/x', 'http://127.0.0.1:5173/']) {
      expect(await request('media', { requestingUrl, mediaTypes: ['video'] }), requestingUrl).toBe(false);
    }
    expect(await request('media', { requestingUrl: APP_ENTRY_URL, mediaTypes: ['video'], isMainFrame: false })).toBe(false);
  });

  it('denies every other permission, even to the app', async () => {
    const { request } = policy();
    for (const permission of ['geolocation', 'notifications', 'clipboard-read', 'display-capture', 'openExternal', 'midiSysex', 'hid', 'serial', 'usb', 'fullscreen', 'pointerLock', 'idle-detection', 'unknown']) {
      expect(await request(permission, { requestingUrl: APP_ENTRY_URL }), permission).toBe(false);
    }
  });

  it('answers permission checks by the same rule, and refuses every device', () => {
    const { check, recorded } = policy();
    expect(check('media', APP_ORIGIN, { requestingUrl: APP_ENTRY_URL, mediaType: 'video' })).toBe(true);
    expect(check('media', APP_ORIGIN, { requestingUrl: APP_ENTRY_URL, mediaType: 'audio' })).toBe(false);
    expect(check('media', 'https://evil.example', { mediaType: 'video' })).toBe(false);
    expect(check('clipboard-read', APP_ORIGIN, { requestingUrl: APP_ENTRY_URL })).toBe(false);
    expect(recorded.device!({ deviceType: 'usb', origin: APP_ORIGIN })).toBe(false);
  });
});
