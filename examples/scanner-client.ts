/**
 * A small scanner integration: uploads a card photo, creates the patient and the card,
 * runs an eligibility check, and waits for its answer — all over Coverdesk's local API
 * socket (or TCP with --port). Usage:
 *
 *   npx tsx examples/scanner-client.ts --data-dir ~/.coverdesk --front front.jpg \
 *     [--back back.jpg] [--first Ada --last Lovelace --dob 1985-12-10] [--port 7780] [--wait 60]
 *
 * Calls are typed by `v1-api.generated.ts`, generated from the API's OpenAPI document
 * (`GET /v1/openapi.json`, docs/openapi.json) with openapi-typescript, and made with
 * openapi-fetch: when the contract changes, this file stops compiling.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import createClient from 'openapi-fetch';
import type { components, paths } from './v1-api.generated';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    front: { type: 'string' },
    back: { type: 'string' },
    first: { type: 'string', default: 'Ada' },
    last: { type: 'string', default: 'Lovelace' },
    dob: { type: 'string', default: '1985-12-10' },
    'member-id': { type: 'string', default: 'XGH123456789' },
    port: { type: 'string' },
    /** How long to wait for the check's answer, in seconds. */
    wait: { type: 'string', default: '60' },
  },
});

if (!values['data-dir'] || !values.front) {
  console.error('usage: scanner-client --data-dir DIR --front FRONT.jpg [--back BACK.jpg] [--port P]');
  process.exit(2);
}
const dataDir = values['data-dir'];
const token = fs.readFileSync(path.join(dataDir, 'local-api.token'), 'utf8').trim();

/**
 * Where the local API listens without TCP: a Unix socket in the data folder, or on Windows a
 * named pipe whose random name (new at every start) Coverdesk writes to `local-api.pipe`.
 */
function localSocket(): string {
  if (process.platform === 'win32') return fs.readFileSync(path.join(dataDir, 'local-api.pipe'), 'utf8').trim();
  return path.join(dataDir, 'local-api', 'local-api.sock');
}

/** fetch over a Unix socket or named pipe, which the built-in fetch cannot reach. */
async function socketFetch(request: Request): Promise<Response> {
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const url = new URL(request.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath: localSocket(), method: request.method, path: `${url.pathname}${url.search}`, headers: Object.fromEntries(request.headers) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const api = createClient<paths>({
  baseUrl: values.port ? `http://127.0.0.1:${values.port}` : 'http://localhost',
  headers: { Authorization: `Bearer ${token}` },
  ...(values.port ? {} : { fetch: socketFetch }),
});

/** Stops with the API's own words: the error envelope names the field and what is allowed. */
function expectOk<T>(step: string, answer: { data?: T; error?: components['schemas']['Error']; response: Response }): T {
  if (answer.data === undefined) {
    console.error(`${step} failed (${answer.response.status}):`, JSON.stringify(answer.error?.error, null, 2));
    process.exit(1);
  }
  return answer.data;
}

async function uploadPhoto(file: string): Promise<string> {
  const type = /\.png$/i.test(file) ? 'image/png' : 'image/jpeg';
  const answer = await api.POST('/v1/photos', {
    body: new Blob([fs.readFileSync(file)], { type }),
    headers: { 'Content-Type': type },
    bodySerializer: (photo) => photo,
  });
  return expectOk(`upload ${path.basename(file)}`, answer).object_key;
}

async function main(): Promise<void> {
  // One scan, one key prefix: re-running after a crash creates nothing twice.
  const scan = `scan-${path.basename(values.front!)}-${fs.statSync(values.front!).mtimeMs}`;
  const key = (step: string) => ({ header: { 'Idempotency-Key': `${scan}-${step}` } });
  const front = await uploadPhoto(values.front!);
  const back = values.back ? await uploadPhoto(values.back) : undefined;
  const patient = expectOk(
    'create patient',
    await api.POST('/v1/patients', { body: { first_name: values.first!, last_name: values.last!, date_of_birth: values.dob! }, params: key('patient') }),
  );
  const card = expectOk(
    'create card',
    await api.POST('/v1/insurance_cards', {
      body: { patient_id: patient.id, member_id: values['member-id'], front_photo_object_key: front, ...(back ? { back_photo_object_key: back } : {}) },
      params: key('card'),
    }),
  );
  const providers = expectOk('list providers', await api.GET('/v1/providers', { params: { query: { limit: 1 } } })).data;
  const payers = expectOk('list payers', await api.GET('/v1/clearinghouse_entities', { params: { query: { limit: 1 } } })).data;
  let check = expectOk(
    'create check',
    await api.POST('/v1/electronic_eligibility_checks', {
      body: { insurance_card_id: card.id, provider_id: providers[0].id, clearinghouse_entity_id: payers[0].id, service_type: 'health_benefit_plan_coverage' },
      params: key('check'),
    }),
  );
  console.log(`card ${card.id}, check ${check.id}: ${check.status}`);
  for (let i = 0; i < Number(values.wait) && check.status === 'pending'; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    check = expectOk('read check', await api.GET('/v1/electronic_eligibility_checks/{id}', { params: { path: { id: check.id } } }));
  }
  console.log(`check ${check.id}: ${check.status}${check.status === 'pending' ? ' (still waiting: it is queued until Coverdesk reaches the upstream)' : ''}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
