import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchBridgeCall } from '@src/main/bridge/dispatch';
import { socketDir, socketPath } from '@src/main/local-api/endpoints';
import { tokenPath } from '@src/main/local-api/token-file';
import { SEED_CLEARINGHOUSE_ENTITIES, SEED_PROVIDERS } from '@src/main/reference/seed-data';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';
import { httpRequest, v1Caller } from '@test/support/http-request';
import { describeV1Conformance } from '@test/support/v1-conformance';

const posix = process.platform !== 'win32';

async function startLocalApiHost(tcpPort?: number): Promise<HostFixture> {
  const fx = startTestHost({ localApi: { tcpPort }, hotFolder: false });
  await fx.host.start();
  return fx;
}

function tokenOf(fx: HostFixture): string {
  return fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim();
}

describeV1Conformance('local API over its Unix socket', async () => {
  const fx = await startLocalApiHost();
  return {
    target: { socketPath: socketPath(fx.dataDir) },
    apiKey: tokenOf(fx),
    providerId: SEED_PROVIDERS[0].id,
    clearinghouseEntityId: SEED_CLEARINGHOUSE_ENTITIES[0].id,
    source: 'api',
    changesFeed: false,
    snapshot: () => fx.snapshot(),
    close: () => fx.cleanup(),
  };
});

describe('local API', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it.runIf(posix)('keeps its socket in a user-only folder and its token in a user-only file', async () => {
    fx = await startLocalApiHost();
    expect(fs.statSync(socketDir(fx.dataDir)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(tokenPath(fx.dataDir)).mode & 0o777).toBe(0o600);
    expect(tokenOf(fx)).toMatch(/^[0-9a-f]{64}$/);
    const status = fx.host.bridge['localApi.status']({});
    await expect(status).resolves.toMatchObject({ state: 'running', address: socketPath(fx.dataDir), token: tokenOf(fx) });
  });

  it.runIf(posix)('refuses to start on a socket folder others can enter, says why, and the desk keeps working', async () => {
    const first = await startLocalApiHost();
    const dataDir = first.dataDir;
    await first.host.close();
    fs.chmodSync(socketDir(dataDir), 0o755);
    fx = startTestHost({ dataDir, localApi: {}, hotFolder: false });
    await fx.host.start();
    const status = await fx.host.bridge['localApi.status']({});
    expect(status.state).toBe('unavailable');
    expect(status.message).toMatch(/chmod 700/);
    expect(fs.existsSync(socketPath(dataDir))).toBe(false);
    expect((await dispatchBridgeCall(fx.host.bridge, 'patients.list', {})).ok).toBe(true);
    expect(fs.statSync(socketDir(dataDir)).mode & 0o777).toBe(0o755); // never silently tightened
  });

  it('makes records with source api that the desk sees through the bridge at once', async () => {
    fx = await startLocalApiHost();
    const call = v1Caller({ socketPath: socketPath(fx.dataDir) }, tokenOf(fx));
    const changed: string[] = [];
    fx.host.events.on('records.changed', (change) => changed.push(change.id));
    const patient = await call('POST', '/v1/patients', { first_name: 'Scan', last_name: 'Ner', date_of_birth: '1970-05-05' });
    const card = await call('POST', '/v1/insurance_cards', { patient_id: patient.json.id, member_id: 'M-1' });
    expect(card.json.source).toBe('api');
    expect(card.json.sync).toMatchObject({ state: 'queued' });
    expect(changed).toEqual([patient.json.id, card.json.id]);
    const viaBridge = await dispatchBridgeCall(fx.host.bridge, 'cards.get', { id: card.json.id });
    expect(viaBridge).toMatchObject({ ok: true, value: { id: card.json.id, source: 'api', member_id: 'M-1' } });
  });

  it('leaves the same audit trail as the desk, naming the channel: creates, reads, listed records and photos', async () => {
    fx = await startLocalApiHost();
    const call = v1Caller({ socketPath: socketPath(fx.dataDir) }, tokenOf(fx));
    const patient = await call('POST', '/v1/patients', { first_name: 'Audit', last_name: 'Trail', date_of_birth: '1970-05-05' });
    await call('GET', `/v1/patients/${patient.json.id}`);
    await call('GET', '/v1/patients?limit=5');
    await call('GET', '/v1/providers');
    const entries = fx.host.audit.list({ limit: 10 }).data.reverse();
    expect(entries.map((e) => [e.action, e.record_id])).toEqual([
      ['create', patient.json.id],
      ['view', patient.json.id],
      ['view', patient.json.id],
    ]);
    for (const entry of entries) expect(entry.actor).toMatch(/ \(local API\)$/);
  });

  it('writes a create and its audit entry in one transaction: an entry that cannot be written stores nothing', async () => {
    fx = await startLocalApiHost();
    const call = v1Caller({ socketPath: socketPath(fx.dataDir) }, tokenOf(fx));
    const sqlite = fx.host.database.sqlite;
    // A real refusal from the database, on the audit insert alone (as a full disk would refuse it).
    sqlite.exec("CREATE TEMP TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit refused'); END");
    const before = fx.snapshot();
    const refused = await call('POST', '/v1/patients', { first_name: 'No', last_name: 'Trail', date_of_birth: '1970-05-05' }, { 'idempotency-key': 'no-trail' });
    expect(refused.status).toBe(500);
    // No record (and no outbox entry, no stored answer) without its audit entry.
    expect(fx.snapshot()).toEqual(before);
    sqlite.exec('DROP TRIGGER refuse_audit');
    const retried = await call('POST', '/v1/patients', { first_name: 'No', last_name: 'Trail', date_of_birth: '1970-05-05' }, { 'idempotency-key': 'no-trail' });
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(fx.host.audit.list({ limit: 1 }).data[0]).toMatchObject({ action: 'create', record_id: retried.json.id });
  });

  it('stops accepting the old token the moment a new one is made', async () => {
    fx = await startLocalApiHost();
    const target = { socketPath: socketPath(fx.dataDir) };
    const old = tokenOf(fx);
    const status = await fx.host.bridge['localApi.regenerateToken']({});
    expect(status.token).not.toBe(old);
    expect(status.token).toBe(tokenOf(fx));
    expect((await v1Caller(target, old)('GET', '/v1/patients')).status).toBe(401);
    expect((await v1Caller(target, status.token!)('GET', '/v1/patients')).status).toBe(200);
  });

  describe('over TCP', () => {
    async function tcpHost() {
      fx = await startLocalApiHost(0);
      const status = await fx.host.bridge['localApi.status']({});
      const baseUrl = status.tcp_address!;
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      return { baseUrl, port: new URL(baseUrl).port, token: tokenOf(fx) };
    }

    it('answers with the token, and refuses without it', async () => {
      const { baseUrl, token } = await tcpHost();
      expect((await v1Caller({ baseUrl }, token)('GET', '/v1/providers')).status).toBe(200);
      const before = fx!.snapshot();
      const answer = await v1Caller({ baseUrl }, 'nope')('POST', '/v1/patients', { first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' });
      expect(answer.status).toBe(401);
      expect(fx!.snapshot()).toEqual(before);
    });

    it('refuses any Origin and any foreign Host with 403 before anything else, and sends no CORS headers', async () => {
      const { baseUrl, port, token } = await tcpHost();
      const body = JSON.stringify({ first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' });
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const before = fx!.snapshot();
      for (const extra of [{ origin: 'https://evil.example' }, { origin: 'null' }, { host: `evil.example:${port}` }, { host: '127.0.0.1' }, { host: `127.0.0.1.nip.io:${port}` }]) {
        const answer = await httpRequest({ baseUrl }, { method: 'POST', path: '/v1/patients', headers: { ...headers, ...extra }, body });
        expect(answer.status, JSON.stringify(extra)).toBe(403);
        expect(answer.json.error.code).toBe('forbidden');
        expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      }
      expect(fx!.snapshot()).toEqual(before);
      const ok = await httpRequest({ baseUrl }, { method: 'POST', path: '/v1/patients', headers: { ...headers, host: `localhost:${port}` }, body });
      expect(ok.status).toBe(201);
      expect(Object.keys(ok.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });

  it('leaves the local API off when asked, and says so', async () => {
    fx = startTestHost({ localApi: false, hotFolder: false });
    await fx.host.start();
    expect(fs.existsSync(path.join(fx.dataDir, 'local-api', 'local-api.sock'))).toBe(false);
    await expect(fx.host.bridge['localApi.status']({})).resolves.toMatchObject({ state: 'stopped', address: null });
  });
});
