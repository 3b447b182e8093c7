import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { v1Caller } from '@test/support/http-request';

/** Issue 28, item 6: one token per integration, named in the audit, revocable. Over the real socket. */
describe('local API integrations', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  async function start() {
    fx = startTestHost({ localApi: {}, hotFolder: false });
    await fx.host.start();
    const target = { socketPath: socketPath(fx.dataDir) };
    return { host: fx.host, call: (token: string) => v1Caller(target, token) };
  }

  const person = (i: number) => ({ first_name: 'Named', last_name: `Caller${i}`, date_of_birth: '1970-05-05' });

  it('gives each integration its own token, kept only as a hash, and names the integration on every entry its requests lead to', async () => {
    const { host, call } = await start();
    const front = await host.bridge['localApi.addIntegration']({ name: '  Front scanner ' });
    const billing = await host.bridge['localApi.addIntegration']({ name: 'Billing export' });
    expect(front.integration).toMatchObject({ name: 'Front scanner', last_used_at: null, revoked_at: null });
    expect(front.token).toMatch(/^[0-9a-f]{64}$/);
    // Only the hash is stored: the token itself is nowhere in the database.
    const stored = host.database.sqlite.prepare('SELECT * FROM integration_tokens').all();
    expect(JSON.stringify(stored)).not.toContain(front.token);
    expect(JSON.stringify(stored)).not.toContain(billing.token);

    // Creates from both at once share group commits: each entry still names its own caller.
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(i % 2 ? billing.token : front.token)('POST', '/v1/patients', person(i)).then((r) => ({ i, id: r.json.id as string, status: r.status }))),
    );
    expect(made.every((m) => m.status === 201)).toBe(true);
    await call(front.token)('GET', `/v1/patients/${made[0].id}`);
    const fileToken = fs.readFileSync(tokenPath(fx!.dataDir), 'utf8').trim();
    const viaFile = await call(fileToken)('POST', '/v1/patients', person(99));
    expect(viaFile.status).toBe(201);

    const entries = host.audit.list({ limit: 100 }).data;
    const actorOf = (action: string, id: string) => entries.find((e) => e.action === action && e.record_id === id)?.actor;
    for (const m of made) expect(actorOf('create', m.id)).toMatch(m.i % 2 ? / \(local API: Billing export\)$/ : / \(local API: Front scanner\)$/);
    expect(actorOf('view', made[0].id)).toMatch(/ \(local API: Front scanner\)$/);
    // The token file's token keeps working, audited as the local API, as before.
    expect(actorOf('create', viaFile.json.id)).toMatch(/ \(local API\)$/);
    // Making a token is the desk's own act, audited.
    expect(actorOf('create', front.integration.id)).not.toMatch(/local API/);
    const listed = await host.bridge['localApi.integrations']({});
    expect(listed.find((i) => i.id === front.integration.id)?.last_used_at).not.toBeNull();
  });

  it('stops a revoked token at once, writing nothing for it, keeps it listed and audited, and the others work on', async () => {
    const { host, call } = await start();
    const gone = await host.bridge['localApi.addIntegration']({ name: 'Old kiosk' });
    const kept = await host.bridge['localApi.addIntegration']({ name: 'Scanner' });
    expect((await call(gone.token)('GET', '/v1/patients')).status).toBe(200);
    const revoked = await host.bridge['localApi.revokeIntegration']({ id: gone.integration.id });
    expect(revoked.revoked_at).not.toBeNull();
    const before = fx!.snapshot();
    const refused = await call(gone.token)('POST', '/v1/patients', person(1));
    expect(refused.status).toBe(401);
    expect(fx!.snapshot()).toEqual(before);
    expect((await call(kept.token)('POST', '/v1/patients', person(2))).status).toBe(201);
    const listed = await host.bridge['localApi.integrations']({});
    expect(listed.map((i) => [i.name, i.revoked_at === null])).toEqual(
      expect.arrayContaining([
        ['Old kiosk', false],
        ['Scanner', true],
      ]),
    );
    expect(host.audit.list({ limit: 20 }).data.some((e) => e.action === 'revoke' && e.record_id === gone.integration.id)).toBe(true);
  });

  it('refuses a name that is empty, too long or on two lines, and an unknown integration, naming the field and writing nothing', async () => {
    const { host } = await start();
    const before = fx!.snapshot();
    for (const [name, message] of [
      ['   ', /^name must not be empty/],
      ['x'.repeat(61), /^name must be at most 60 characters/],
      ['Scanner\nTwo', /^name must be on one line/],
    ] as const) {
      const result = await dispatchBridgeCall(host.bridge, 'localApi.addIntegration', { name });
      expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed', errors: [{ path: 'name', message: expect.stringMatching(message) }] } });
    }
    const unknown = await dispatchBridgeCall(host.bridge, 'localApi.revokeIntegration', { id: 'itk_01JZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'resource_not_found' } });
    expect(fx!.snapshot()).toEqual(before);
  });
});
