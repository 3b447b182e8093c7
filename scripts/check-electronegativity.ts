/**
 * `npm run security:electronegativity`: Electronegativity over the sources (src/) and the
 * build (out/, from `npm run build`), each run's SARIF report parsed, and the run failed on
 * any finding that security/electronegativity-allow-list.json does not list with a reason.
 * Reports are kept in out/electronegativity/ for CI to upload.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const ROOT = path.resolve(__dirname, '..');
export const ALLOW_LIST_FILE = path.join(ROOT, 'security', 'electronegativity-allow-list.json');
const REPORT_DIR = path.join(ROOT, 'out', 'electronegativity');

export const TARGETS = { sources: 'src', build: 'out' } as const;
export type Target = keyof typeof TARGETS;

const Reason = z.string().trim().min(20, 'every entry needs a reason a reviewer can check (20 characters or more)');
export const AllowList = z.strictObject({
  /** Checks not run at all (each with why). */
  excluded_checks: z.array(z.strictObject({ check: z.string().min(1), reason: Reason })),
  /** Findings accepted after review: the same check in the same file of the same target. */
  allowed: z.array(z.strictObject({ check: z.string().min(1), target: z.enum(['sources', 'build']), file: z.string().min(1), reason: Reason })),
});
export type AllowList = z.infer<typeof AllowList>;

/** The parts of SARIF 2.1.0 this gate reads. */
const Sarif = z.object({
  runs: z
    .array(
      z.object({
        results: z.array(
          z.object({
            ruleId: z.string(),
            level: z.string().optional(),
            message: z.object({ text: z.string() }),
            locations: z
              .array(
                z.object({
                  physicalLocation: z.object({
                    artifactLocation: z.object({ uri: z.string() }),
                    region: z.object({ startLine: z.number().optional() }).optional(),
                  }),
                }),
              )
              .min(1),
          }),
        ),
      }),
    )
    .length(1),
});

export interface Finding {
  target: Target;
  check: string;
  file: string;
  line: number;
  message: string;
}

export function findingsFromSarif(target: Target, sarifText: string): Finding[] {
  const sarif = Sarif.parse(JSON.parse(sarifText));
  return sarif.runs[0].results.map((result) => {
    const location = result.locations[0].physicalLocation;
    return { target, check: result.ruleId, file: location.artifactLocation.uri, line: location.region?.startLine ?? 1, message: result.message.text };
  });
}

/**
 * An allow-list file names one file, or with `*` any name within one folder: the bundler
 * names the chunks code shared by two entries with a hash that changes with every edit.
 */
function fileMatches(pattern: string, file: string): boolean {
  if (!pattern.includes('*')) return pattern === file;
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('[^/]*')}$`).test(file);
}

/** Findings the allow-list does not cover, and allow-list entries nothing matched any more. */
export function compareWithAllowList(findings: Finding[], allowList: AllowList, targets: readonly Target[]) {
  const matches = (entry: AllowList['allowed'][number], finding: Finding) =>
    entry.check === finding.check && entry.target === finding.target && fileMatches(entry.file, finding.file);
  const unexpected = findings.filter((finding) => !allowList.allowed.some((entry) => matches(entry, finding)));
  const stale = allowList.allowed.filter((entry) => targets.includes(entry.target) && !findings.some((finding) => matches(entry, finding)));
  return { unexpected, stale };
}

async function waitForJson(file: string): Promise<string> {
  // Electronegativity writes its report with fs.writeFile and does not wait for it.
  for (let i = 0; i < 1000; i++) {
    try {
      const text = fs.readFileSync(file, 'utf8');
      JSON.parse(text);
      return text;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  throw new Error(`Electronegativity wrote no report at ${file}.`);
}

type Run = (options: Record<string, unknown>) => Promise<{ errors: { file: string; message: string; tolerable: boolean }[] }>;

/** Runs Electronegativity over one folder; answers the SARIF report's text. */
export async function runElectronegativity(input: string, report: string, excludedChecks: string[]): Promise<string> {
  fs.mkdirSync(path.dirname(report), { recursive: true });
  fs.rmSync(report, { force: true });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when the gate runs: it pulls in its own ESLint 7 and TypeScript parser
  const run = require('@doyensec/electronegativity') as Run;
  const electronVersion = (JSON.parse(fs.readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }).version;
  const result = await run({
    input,
    output: report,
    isSarif: true,
    isRelative: true,
    customScan: [],
    excludeFromScan: excludedChecks,
    electronVersionOverride: electronVersion,
  });
  // A file it could not parse is a file nobody checked.
  const unparsed = result.errors.filter((error) => !error.tolerable);
  if (unparsed.length > 0) {
    throw new Error(`Electronegativity could not parse ${unparsed.length} file(s) in ${input}:\n${unparsed.map((e) => `  ${e.file}: ${e.message}`).join('\n')}`);
  }
  return waitForJson(report);
}

async function scan(target: Target, allowList: AllowList): Promise<Finding[]> {
  const input = path.join(ROOT, TARGETS[target]);
  if (!fs.existsSync(input)) throw new Error(`Nothing to scan at ${TARGETS[target]}/: run \`npm run build\` first.`);
  const sarif = await runElectronegativity(input, path.join(REPORT_DIR, `${target}.sarif`), allowList.excluded_checks.map((c) => c.check));
  return findingsFromSarif(target, sarif);
}

async function main(): Promise<void> {
  const allowList = AllowList.parse(JSON.parse(fs.readFileSync(ALLOW_LIST_FILE, 'utf8')));
  const targets = Object.keys(TARGETS) as Target[];
  const findings: Finding[] = [];
  for (const target of targets) findings.push(...(await scan(target, allowList)));
  const { unexpected, stale } = compareWithAllowList(findings, allowList, targets);

  console.log(`Electronegativity: ${findings.length} finding(s) in ${targets.join(' and ')}, ${findings.length - unexpected.length} allowed with a reason. Reports: ${path.relative(ROOT, REPORT_DIR)}/`);
  for (const entry of stale) console.warn(`  allow-list entry no longer needed: ${entry.check} in ${entry.target} ${entry.file}`);
  if (unexpected.length > 0) {
    console.error(`\n${unexpected.length} finding(s) not in ${path.relative(ROOT, ALLOW_LIST_FILE)}:`);
    for (const f of unexpected) console.error(`  ${f.check}  ${f.target}: ${f.file}:${f.line}  ${f.message}`);
    console.error('\nFix them, or add each to the allow-list with the reason it is safe.');
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
