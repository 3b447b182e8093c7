/**
 * Writes the OpenAPI document, the API reference page and the typed client's types from
 * the zod contract. Run after changing anything in src/shared/contract; a test fails
 * while they are stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openApiArtifacts } from './openapi-artifacts';

const root = path.resolve(__dirname, '..');

async function main(): Promise<void> {
  for (const artifact of await openApiArtifacts()) {
    const file = path.join(root, artifact.path);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === artifact.content) continue;
    fs.writeFileSync(file, artifact.content);
    console.log(`wrote ${artifact.path}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
