import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpRequest, v1Caller } from '@test/support/http-request';
import { makeTempDir } from '@test/support/temp-dir';

const ROOT = path.resolve(__dirname, '../../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const CLI = path.join(ROOT, 'src/main/sandbox/cli.ts');

const children: ChildProcess[] = [];
const temps: { cleanup(): void }[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const t of temps.splice(0)) t.cleanup();
});

interface Started {
  child: ChildProcess;
  url: string;
  stderr(): string;
  exit(): Promise<number | null>;
}

/** `npm run sandbox -- …` as a real child process; resolves with the first line it prints. */
function runSandbox(args: string[]): Promise<Started> {
  const child = spawn(TSX, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s; stderr: ${stderr}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve({ child, url: stdout.slice(0, newline), stderr: () => stderr, exit: () => exited });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited ${code}: ${stderr}`), { code, stderr }));
    });
  });
}

describe('npm run sandbox', () => {
  it('prints its URL, answers with the key, keeps its data in --db, and stops cleanly', async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const db = path.join(temp.dir, 'sandbox.sqlite');
    const sandbox = await runSandbox(['--port', '0', '--db', db, '--api-key', 'cli-key', '--delay', '50', '--latency', '5']);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const call = v1Caller({ baseUrl: sandbox.url }, 'cli-key');
    const providers = await call('GET', '/v1/providers');
    expect(providers.status).toBe(200);
    expect(providers.json.data.length).toBeGreaterThan(0);
    expect((await httpRequest({ baseUrl: sandbox.url }, { path: '/v1/providers' })).status).toBe(401);
    const patient = await call('POST', '/v1/patients', { first_name: 'Cli', last_name: 'User', date_of_birth: '2000-02-02' });
    expect(patient.status).toBe(201);
    expect(sandbox.stderr()).not.toContain('cli-key');

    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exit()).toBe(0);
    expect(fs.existsSync(db)).toBe(true);
    const again = await runSandbox(['--db', db, '--api-key', 'cli-key']);
    expect((await v1Caller({ baseUrl: again.url }, 'cli-key')('GET', `/v1/patients/${patient.json.id}`)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exit()).toBe(0);
  });

  it('refuses a bad option with status 2 and says what is allowed', async () => {
    const error = await runSandbox(['--api-key', 'k', '--faults', '500=2']).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(2);
    expect(error?.stderr).toMatch(/between 0 and 1/);
    expect(error?.stderr).toMatch(/Usage: npm run sandbox/);
  });

  it('--x12 DIR: serves the 271s in DIR; a bad one refuses to start with status 1, naming the file and the reason', async () => {
    const temp = makeTempDir();
    temps.push(temp);
    const fixtures = path.join(ROOT, 'test/fixtures/x12-271');
    fs.copyFileSync(path.join(fixtures, 'oop_5010_Example_3_1_2.x12'), path.join(temp.dir, 'smith.x12'));
    const sandbox = await runSandbox(['--api-key', 'k', '--x12', temp.dir]);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sandbox.stderr()).toContain('271 answers: 1 people from 1 files');
    sandbox.child.kill('SIGTERM');
    expect(await sandbox.exit()).toBe(0);

    fs.writeFileSync(path.join(temp.dir, 'request.x12'), fs.readFileSync(path.join(fixtures, 'imsweb_x271.x12'), 'utf8').replace('ST*271*', 'ST*270*'));
    const error = await runSandbox(['--api-key', 'k', '--x12', temp.dir]).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr.trim()).toBe('request.x12: is a 270 (an eligibility request), not a 271 response');
  });
});
