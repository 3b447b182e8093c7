import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openApiArtifacts } from '../../../scripts/openapi-artifacts';
import { openApiDocument } from '@src/shared/contract/openapi-document';

const root = path.resolve(__dirname, '../../..');

it('the generated document, reference page and client types match the contract (run `npm run openapi:generate`)', async () => {
  const artifacts = await openApiArtifacts();
  expect(artifacts.map((a) => a.path).sort()).toEqual(['docs/api-reference.md', 'docs/openapi.json', 'examples/v1-api.generated.ts']);
  for (const artifact of artifacts) {
    expect(fs.readFileSync(path.join(root, artifact.path), 'utf8'), `${artifact.path} is stale: run npm run openapi:generate`).toBe(artifact.content);
  }
}, 20_000);

it('a change to the contract changes every artifact, so the comparison above can fail', async () => {
  const changed = structuredClone(openApiDocument());
  (changed.components.schemas.PatientCreate as { properties: Record<string, unknown> }).properties.middle_name = { type: 'string' };
  const before = await openApiArtifacts();
  const after = await openApiArtifacts(changed);
  for (const [i, artifact] of after.entries()) {
    expect(artifact.content, artifact.path).not.toBe(before[i].content);
    expect(artifact.content).toContain('middle_name');
  }
}, 20_000);
