import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { socketPath } from '@src/main/local-api/endpoints';
import { LOCAL_API_MAX_IN_FLIGHT } from '@src/main/local-api/local-api';
import { tokenPath } from '@src/main/local-api/token-file';
import { startTestHost, type HostFixture } from '@test/support/host-fixture';

const CONNECTIONS = 500;

/**
 * `count` POSTs at once, each on a connection of its own, from a child process: a scanner
 * is another program, and a client in the server's own event loop would take turns with it.
 */
function floodFromChild(target: string, token: string, body: string, count: number): Promise<{ status: number; retryAfter?: string; id?: string; code?: string }[]> {
  const script = `
    const http = require('node:http');
    const [target, token, body, count] = process.argv.slice(1);
    const one = () => new Promise((resolve) => {
      const request = http.request({ socketPath: target, path: '/v1/patients', method: 'POST', agent: false,
        headers: { host: 'localhost', 'content-type': 'application/json', authorization: 'Bearer ' + token } }, (response) => {
        const chunks = [];
        response.on('data', (c) => chunks.push(c));
        response.on('end', () => {
          const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve({ status: response.statusCode, retryAfter: response.headers['retry-after'], id: json.id, code: json.error && json.error.code });
        });
      });
      request.on('error', (e) => resolve({ status: 0, code: e.code }));
      request.end(body);
    });
    Promise.all(Array.from({ length: Number(count) }, one)).then((all) => process.stdout.write(JSON.stringify(all)));
  `;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, target, token, body, String(count)], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout)),
    );
  });
}

/** One POST on a connection of its own (no agent). */
function post(target: string, token: string, body: string): Promise<{ status: number; retryAfter?: string; id?: string; code?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath: target, path: '/v1/patients', method: 'POST', agent: false, headers: { host: 'localhost', 'content-type': 'application/json', authorization: `Bearer ${token}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] as string | undefined, id: json.id, code: json.error?.code });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('local API under a flood of connections', () => {
  let fx: HostFixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  it('answers 500 connections at once: each created once or told 429 with Retry-After, nothing lost, and the desk stays responsive', async () => {
    fx = startTestHost({ localApi: {}, hotFolder: false });
    await fx.host.start();
    const token = fs.readFileSync(tokenPath(fx.dataDir), 'utf8').trim();
    const target = socketPath(fx.dataDir);
    const body = JSON.stringify({ first_name: 'Flood', last_name: 'Test', date_of_birth: '1980-01-01' });

    const flood = floodFromChild(target, token, body, CONNECTIONS);
    // The desk's own screens during the flood: a bridge read answers while it runs.
    const deskStarted = Date.now();
    await fx.host.bridge['sync.status']({});
    const deskMs = Date.now() - deskStarted;
    const answers = await flood;

    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429);
    expect(created.length + refused.length).toBe(CONNECTIONS);
    expect(created.length).toBeGreaterThanOrEqual(LOCAL_API_MAX_IN_FLIGHT);
    for (const answer of refused) {
      expect(answer.code).toBe('rate_limited');
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Every 201 is a stored patient, exactly once; every 429 stored nothing.
    const stored = fx.host.database.sqlite.prepare("SELECT id FROM patients WHERE first_name = 'Flood'").all() as { id: string }[];
    expect(stored.map((row) => row.id).sort()).toEqual(created.map((a) => a.id).sort());
    expect(deskMs).toBeLessThan(5_000);

    // The limit passed, the same integration is served again.
    const after = await post(target, token, body);
    expect(after.status).toBe(201);
  }, 60_000);
});
