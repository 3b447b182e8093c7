import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@test/support/temp-dir';

const script = path.resolve(__dirname, '../../../scripts/check-cycles.cjs');
const temp = makeTempDir('coverdesk-check-cycles-');
afterAll(() => temp.cleanup());

/** A project root holding `files` (path under src/ → source), checked by the script. */
function check(name: string, files: Record<string, string>) {
  const root = path.join(temp.dir, name);
  for (const [file, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, 'src', file)), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', file), source);
  }
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('the import-cycle check', () => {
  it('passes folders that import one way only', () => {
    const run = check('clean', {
      'main/db/store.ts': "import { key } from '../support/key';\nexport const store = key;\n",
      'main/support/key.ts': 'export const key = 1;\n',
    });
    expect(run).toEqual({ status: 0, stderr: '' });
  });

  it('fails a cycle between two files and names both', () => {
    const run = check('files', {
      'main/db/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'main/db/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('import cycle between files: src/main/db/a.ts -> src/main/db/b.ts -> src/main/db/a.ts');
  });

  it('fails a cycle between folders that no two files form, naming the imports that close it', () => {
    const run = check('folders', {
      'main/db/open.ts': "import { cipher } from '../security/cipher';\nexport const open = cipher;\n",
      'main/security/cipher.ts': 'export const cipher = 1;\n',
      'main/security/audit.ts': "import { open } from '../db/open';\nexport const audit = open;\n",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('import cycle between layers: src/main/db, src/main/security');
    expect(run.stderr).toContain('src/main/db/open.ts -> src/main/security/cipher.ts');
    expect(run.stderr).toContain('src/main/security/audit.ts -> src/main/db/open.ts');
  });
});
