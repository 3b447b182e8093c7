import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ALLOW_LIST_FILE,
  AllowList,
  compareWithAllowList,
  findingsFromSarif,
  runElectronegativity,
  type Finding,
} from '../../../scripts/check-electronegativity';
import { makeTempDir } from '@test/support/temp-dir';

const temp = makeTempDir('coverdesk-electronegativity-');
afterAll(() => temp.cleanup());

const allowList: AllowList = {
  excluded_checks: [],
  allowed: [{ check: 'OPEN_EXTERNAL_JS_CHECK', target: 'sources', file: 'main/index.ts', reason: 'only https links that passed the allow-list helper' }],
};
const finding = (over: Partial<Finding> = {}): Finding => ({ target: 'sources', check: 'OPEN_EXTERNAL_JS_CHECK', file: 'main/index.ts', line: 3, message: 'Review', ...over });

describe('the Electronegativity gate', () => {
  it('passes a finding the allow-list names (check, target and file), whatever its line', () => {
    expect(compareWithAllowList([finding({ line: 99 })], allowList, ['sources', 'build'])).toEqual({ unexpected: [], stale: [] });
  });

  it('fails any finding the allow-list does not name, and reports entries nothing matched', () => {
    const other = [finding({ file: 'main/other.ts' }), finding({ target: 'build', file: 'main/index.js' }), finding({ check: 'NODE_INTEGRATION_JS_CHECK' })];
    const { unexpected, stale } = compareWithAllowList(other, allowList, ['sources', 'build']);
    expect(unexpected).toEqual(other);
    expect(stale).toEqual(allowList.allowed);
  });

  it('matches a * in an entry file name within one folder only (hashed chunk names), never across folders', () => {
    const chunks: AllowList = { excluded_checks: [], allowed: [{ check: 'DANGEROUS_FUNCTIONS_JS_CHECK', target: 'build', file: 'main/chunks/*.js', reason: 'timers given our own functions' }] };
    const inChunk = finding({ target: 'build', check: 'DANGEROUS_FUNCTIONS_JS_CHECK', file: 'main/chunks/ipc-bridge-gkAwLqcK.js' });
    const elsewhere = [
      finding({ target: 'build', check: 'DANGEROUS_FUNCTIONS_JS_CHECK', file: 'main/chunks/deeper/x.js' }),
      finding({ target: 'build', check: 'DANGEROUS_FUNCTIONS_JS_CHECK', file: 'main/index.js' }),
      finding({ target: 'build', check: 'DANGEROUS_FUNCTIONS_JS_CHECK', file: 'main/chunksXjs' }),
    ];
    expect(compareWithAllowList([inChunk, ...elsewhere], chunks, ['build'])).toEqual({ unexpected: elsewhere, stale: [] });
  });

  it('refuses an allow-list entry without a real reason', () => {
    const entry = { check: 'X', target: 'sources', file: 'a.ts' };
    expect(AllowList.safeParse({ excluded_checks: [], allowed: [entry] }).success).toBe(false);
    expect(AllowList.safeParse({ excluded_checks: [], allowed: [{ ...entry, reason: 'ok' }] }).success).toBe(false);
    expect(AllowList.safeParse({ excluded_checks: [{ check: 'AvailableSecurityFixesGlobalCheck' }], allowed: [] }).success).toBe(false);
  });

  it('keeps the checked-in allow-list valid: a reason for every entry', () => {
    const checkedIn = AllowList.parse(JSON.parse(fs.readFileSync(ALLOW_LIST_FILE, 'utf8')));
    expect(checkedIn.allowed.length).toBeGreaterThan(0);
  });

  it('parses the SARIF of a real run and catches an insecure window', { timeout: 60_000 }, async () => {
    const dir = path.join(temp.dir, 'insecure');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'main.js'),
      "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
    );
    const sarif = await runElectronegativity(dir, path.join(temp.dir, 'report.sarif'), ['AvailableSecurityFixesGlobalCheck']);
    const findings = findingsFromSarif('sources', sarif);
    expect(findings.map((f) => f.check)).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK', 'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK']));
    expect(findings.find((f) => f.check === 'SANDBOX_JS_CHECK')).toMatchObject({ file: 'main.js', line: 2 });
    expect(compareWithAllowList(findings, allowList, ['sources']).unexpected.length).toBe(findings.length);
  });

  it('refuses a report that is not SARIF', () => {
    expect(() => findingsFromSarif('sources', '{"runs":[]}')).toThrow();
    expect(() => findingsFromSarif('sources', 'not json')).toThrow();
  });
});
