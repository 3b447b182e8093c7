import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { settings } from '@src/main/db/schema';
import { UnsafePermissionsError } from '@src/main/support/private-path';
import { SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { createFileSecretStore, secretsFilePath } from '@src/main/settings/secret-store';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

let fx: HostFixture;
beforeEach(() => {
  fx = startTestHost({ localApi: false, hotFolder: false });
});
afterEach(async () => {
  await fx.cleanup();
});

const call = (method: string, input: unknown) => dispatchBridgeCall(fx.host.bridge, method, input);

/** Settings rows and the secrets file: equal before and after means nothing was written. */
function written() {
  const file = secretsFilePath(fx.dataDir);
  return {
    rows: fx.host.database.db.select().from(settings).all(),
    secrets: fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null,
  };
}

describe('settings', () => {
  it('start in sandbox mode with nothing set', async () => {
    expect(await call('settings.get', {})).toEqual({
      ok: true,
      value: { mode: 'sandbox', upstream_url: null, api_key_set: false, default_provider_id: null, default_service_type: null, hot_folder: null, waiting: { count: 0, mode: 'sandbox', upstream_url: null } },
    });
  });

  it('save the upstream, the key (as a secret, never sent back), the default provider and the hot folder, and keep them across a restart', async () => {
    const dir = fs.mkdtempSync(`${fx.dataDir}-scans-`);
    const saved = await call('settings.update', {
      upstream_url: 'https://eligibility.example.com',
      api_key: 'sk_live_secret_value_123',
      default_provider_id: SEED_PROVIDERS[1].id,
      hot_folder: dir,
    });
    const expected = {
      mode: 'upstream',
      upstream_url: 'https://eligibility.example.com',
      api_key_set: true,
      default_provider_id: SEED_PROVIDERS[1].id,
      default_service_type: null,
      hot_folder: dir,
      waiting: { count: 0, mode: 'upstream', upstream_url: 'https://eligibility.example.com' },
    };
    // Saving the service tries it (a name that resolves nowhere: not reachable).
    expect(saved).toEqual({ ok: true, value: { ...expected, connection: expect.objectContaining({ state: 'unreachable', upstream_url: 'https://eligibility.example.com' }) } });
    expect(JSON.stringify(saved)).not.toContain('sk_live_secret_value_123');
    expect(JSON.stringify(written().rows)).not.toContain('sk_live_secret_value_123');
    if (process.platform !== 'win32') expect(fs.statSync(secretsFilePath(fx.dataDir)).mode & 0o777).toBe(0o600);

    fx.reopen();
    expect(await call('settings.get', {})).toEqual({ ok: true, value: expected });

    // Clearing the upstream goes back to sandbox mode; the key stays until cleared itself.
    expect(await call('settings.update', { upstream_url: null })).toMatchObject({ ok: true, value: { mode: 'sandbox', upstream_url: null, api_key_set: true } });
    expect(await call('settings.update', { api_key: null })).toMatchObject({ ok: true, value: { api_key_set: false } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never show a user name or password saved in the address before such addresses were refused', async () => {
    fx.host.database.db.insert(settings).values({ key: 'upstream_url', value: 'https://desk:hunter2@eligibility.example.com/v' }).run();
    const got = await call('settings.get', {});
    expect(got).toMatchObject({ ok: true, value: { mode: 'upstream', upstream_url: 'https://eligibility.example.com/v' } });
    expect(JSON.stringify(got)).not.toContain('hunter2');
  });

  const BAD: [string, Record<string, unknown>, string, string][] = [
    ['a URL that is not http(s)', { upstream_url: 'ftp://files.example.com' }, 'upstream_url', 'invalid_format'],
    ['text that is not a URL', { upstream_url: 'eligibility' }, 'upstream_url', 'invalid_format'],
    ['a URL with a user name and password', { upstream_url: 'https://desk:hunter2@eligibility.example.com' }, 'upstream_url', 'invalid_format'],
    ['an empty API key', { api_key: '   ' }, 'api_key', 'too_small'],
    ['an unknown default provider', { default_provider_id: 'prv_01JD0000000000000000000099' }, 'default_provider_id', 'not_found'],
    ['a relative hot folder', { hot_folder: 'scans/inbox' }, 'hot_folder', 'invalid_format'],
    ['an unknown field', { upstream: 'https://x.example.com' }, 'upstream', 'unknown_field'],
  ];
  for (const [name, input, path, code] of BAD) {
    it(`refuse ${name}, naming the field, and write nothing`, async () => {
      // A valid key in the same change must not be saved either: one bad field refuses it all.
      const before = written();
      const result = await call('settings.update', { ...input, ...(path === 'api_key' ? {} : { api_key: 'sk_must_not_be_saved' }) });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.status).toBe(422);
      expect(result.error.errors).toEqual([expect.objectContaining({ path, code })]);
      expect(result.error.errors![0].message.length).toBeGreaterThan(10);
      // Neither the key sent alongside nor a password in the address comes back.
      expect(JSON.stringify(result.error)).not.toMatch(/sk_must_not_be_saved|hunter2/);
      expect(written()).toEqual(before);
    });
  }
});

describe('the secrets file', () => {
  it('is sealed with its own key derived from the database key; a plaintext one is sealed at first read', async () => {
    await call('settings.update', { api_key: 'sk_sealed_secret' });
    const sealed = fs.readFileSync(secretsFilePath(fx.dataDir));
    expect(sealed.subarray(0, 4).toString('latin1')).toBe('CDS1');
    expect(sealed.toString('latin1')).not.toContain('sk_sealed_secret');
    expect(await call('settings.get', {})).toMatchObject({ ok: true, value: { api_key_set: true } });

    const key = Buffer.alloc(32, 7);
    const plain = createFileSecretStore(fx.dataDir);
    plain.set('upstream_api_key', 'sk_from_before');
    const store = createFileSecretStore(fx.dataDir, { key });
    expect(store.get('upstream_api_key')).toBe('sk_from_before');
    expect(fs.readFileSync(secretsFilePath(fx.dataDir)).toString('latin1')).not.toContain('sk_from_before');
    expect(() => createFileSecretStore(fx.dataDir, { key: Buffer.alloc(32, 8) }).get('upstream_api_key')).toThrow(/could not be decrypted/);
  });

  it('is refused when other users could read it, with the chmod that fixes it', () => {
    if (process.platform === 'win32') return;
    const store = createFileSecretStore(fx.dataDir);
    store.set('upstream_api_key', 'sk_secret');
    fs.chmodSync(secretsFilePath(fx.dataDir), 0o644);
    expect(() => store.get('upstream_api_key')).toThrow(UnsafePermissionsError);
    expect(() => store.get('upstream_api_key')).toThrow(/chmod 600/);
  });

  it('when unsafe, counts as no key (the worker pauses) and saving a key says what to fix, writing nothing', async () => {
    if (process.platform === 'win32') return;
    await call('settings.update', { upstream_url: 'https://eligibility.example.com', api_key: 'sk_secret' });
    fs.chmodSync(secretsFilePath(fx.dataDir), 0o644);
    expect(await call('settings.get', {})).toMatchObject({ ok: true, value: { mode: 'upstream', api_key_set: false } });
    const before = written();
    const result = await call('settings.update', { api_key: 'sk_new_secret', default_provider_id: SEED_PROVIDERS[0].id });
    expect(result).toMatchObject({ ok: false, error: { code: 'secrets_file_unsafe' } });
    if (!result.ok) {
      expect(result.error.message).toContain('chmod 600');
      expect(result.error.message).not.toContain('sk_');
    }
    expect(written()).toEqual(before);
  });

  it('is written whole or not at all (beside, then renamed)', () => {
    const store = createFileSecretStore(fx.dataDir);
    store.set('upstream_api_key', 'first');
    store.set('upstream_api_key', 'second');
    expect(store.get('upstream_api_key')).toBe('second');
    expect(fs.readdirSync(fx.dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
