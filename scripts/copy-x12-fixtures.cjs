#!/usr/bin/env node
// Copies the real and specimen 271 responses (and their provenance) byte for byte into
// test/fixtures/x12-271/, so the X12 tests read files kept with the repo and never depend on
// where the project's reference material lives. Re-run after the source set changes.
// Usage: node scripts/copy-x12-fixtures.cjs [path/to/x12-271]
const fs = require('node:fs');
const path = require('node:path');

const source = process.argv[2] ?? path.resolve(__dirname, '../../shared/data/real-world/x12-271');
const target = path.resolve(__dirname, '../test/fixtures/x12-271');
const names = fs.readdirSync(source).filter((name) => name.endsWith('.x12') || name === 'provenance.json').sort();
if (!names.some((name) => name.endsWith('.x12'))) throw new Error(`${source}: no .x12 files`);
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
for (const name of names) fs.copyFileSync(path.join(source, name), path.join(target, name));
console.log(`copied ${names.filter((n) => n.endsWith('.x12')).length} 271 files to ${path.relative(process.cwd(), target)}`);
