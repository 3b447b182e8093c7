/**
 * A small scanner integration: uploads a card photo, creates the patient and the card,
 * runs an eligibility check, and waits for its answer — all over Coverdesk's local API
 * socket (or TCP with --port). Usage:
 *
 *   npx tsx examples/scanner-client.ts --data-dir ~/.coverdesk --front front.jpg \
 *     [--back back.jpg] [--first Ada --last Lovelace --dob 1985-12-10] [--port 7780] [--wait 60]
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';

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
const target = values.port
  ? { host: '127.0.0.1', port: Number(values.port) }
  : process.platform === 'win32'
    ? { socketPath: `\\\\.\\pipe\\coverdesk-${process.env.USERNAME}` }
    : { socketPath: path.join(dataDir, 'local-api', 'local-api.sock') };

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function request(method: string, urlPath: string, body?: Buffer | object, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...target,
        method,
        path: urlPath,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Stops with the API's own words: the error envelope names the field and what is allowed. */
function expectOk(step: string, answer: Answer): Record<string, unknown> {
  if (answer.status >= 300) {
    console.error(`${step} failed (${answer.status}):`, JSON.stringify(answer.body.error, null, 2));
    process.exit(1);
  }
  return answer.body;
}

async function uploadPhoto(file: string): Promise<string> {
  const type = /\.png$/i.test(file) ? 'image/png' : 'image/jpeg';
  const answer = await request('POST', '/v1/photos', fs.readFileSync(file), { 'content-type': type });
  return expectOk(`upload ${path.basename(file)}`, answer).object_key as string;
}

async function main(): Promise<void> {
  // One scan, one key prefix: re-running after a crash creates nothing twice.
  const scan = `scan-${path.basename(values.front!)}-${fs.statSync(values.front!).mtimeMs}`;
  const front = await uploadPhoto(values.front!);
  const back = values.back ? await uploadPhoto(values.back) : undefined;
  const patient = expectOk(
    'create patient',
    await request('POST', '/v1/patients', { first_name: values.first, last_name: values.last, date_of_birth: values.dob }, { 'idempotency-key': `${scan}-patient` }),
  );
  const card = expectOk(
    'create card',
    await request(
      'POST',
      '/v1/insurance_cards',
      { patient_id: patient.id, member_id: values['member-id'], front_photo_object_key: front, ...(back ? { back_photo_object_key: back } : {}) },
      { 'idempotency-key': `${scan}-card` },
    ),
  );
  const providers = expectOk('list providers', await request('GET', '/v1/providers?limit=1')).data as { id: string }[];
  const payers = expectOk('list payers', await request('GET', '/v1/clearinghouse_entities?limit=1')).data as { id: string }[];
  let check = expectOk(
    'create check',
    await request(
      'POST',
      '/v1/electronic_eligibility_checks',
      { insurance_card_id: card.id, provider_id: providers[0].id, clearinghouse_entity_id: payers[0].id, service_type: 'health_benefit_plan_coverage' },
      { 'idempotency-key': `${scan}-check` },
    ),
  );
  console.log(`card ${String(card.id)}, check ${String(check.id)}: ${String(check.status)}`);
  for (let i = 0; i < Number(values.wait) && check.status === 'pending'; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    check = expectOk('read check', await request('GET', `/v1/electronic_eligibility_checks/${String(check.id)}`));
  }
  console.log(`check ${String(check.id)}: ${String(check.status)}${check.status === 'pending' ? ' (still waiting: it is queued until Coverdesk reaches the upstream)' : ''}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
