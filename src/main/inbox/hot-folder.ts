import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/open-database';
import { knownEntities } from '../extraction/card-photos';
import { inbox_items } from '../db/schema';
import type { Clock } from '../support/clock';
import type { EventHub } from '../support/event-hub';
import type { IdGenerator } from '../support/ids';
import {
  ID_PREFIX,
  InboxSidecar,
  type ClearinghouseEntity,
  type ExtractedFields,
  type PhotoContentType,
  type V1Service,
} from '../../shared/contract';
import { ServiceError, parseOrThrow } from '../../shared/service-error';

export interface HotFolderExtractor {
  extract(images: { bytes: Uint8Array; content_type: string }[], context: { entities: ClearinghouseEntity[] }): Promise<{ fields: ExtractedFields }>;
}

export interface HotFolderDeps {
  dir: string;
  db: Db;
  service: V1Service;
  clock: Clock;
  ids: IdGenerator;
  events: EventHub;
  extractor?: HotFolderExtractor;
  /** A file is used only once its size and time stood still this long (a scanner may still be writing). */
  settleMs?: number;
  /** A front alone waits this long for its back or sidecar (scanners write them one by one). */
  loneFrontMs?: number;
  /** A back or sidecar with no front is rejected after this long. */
  orphanMs?: number;
  pollMs?: number;
  log?: (message: string) => void;
}

export interface HotFolder {
  /** One pass over the folder; returns the ids of items made. */
  scan(): Promise<string[]>;
  start(): void;
  stop(): Promise<void>;
}

const CARD_FILE = /^(?<name>.+)\.(?<side>front|back)\.(?<ext>jpe?g|png)$/i;
const SIDECAR = /^(?<name>.+)\.json$/i;
const IGNORED = /^\.|\.(tmp|part|partial|crdownload|download)$|~$/i;
const TYPES: Record<string, PhotoContentType> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

interface Seen {
  size: number;
  mtimeMs: number;
  since: number;
}

interface Group {
  front?: string;
  back?: string;
  sidecar?: string;
  unknown: string[];
}

/**
 * The scan-to-folder inbox (`<data-dir>/inbox`). `NAME.front.jpg|png` (+ optional
 * `NAME.back.*` and `NAME.json`) becomes an inbox item for the desk; used files move to
 * `processed/`, unusable ones to `rejected/` with `NAME.reason.txt`. Nothing is deleted.
 */
export function createHotFolder(deps: HotFolderDeps): HotFolder {
  const settleMs = deps.settleMs ?? 1500;
  const loneFrontMs = deps.loneFrontMs ?? 5000;
  const orphanMs = deps.orphanMs ?? 60_000;
  const processed = path.join(deps.dir, 'processed');
  const rejected = path.join(deps.dir, 'rejected');
  for (const dir of [deps.dir, processed, rejected]) fs.mkdirSync(dir, { recursive: true });
  const seen = new Map<string, Seen>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string[]> | undefined;
  const log = deps.log ?? (() => {});

  /** Whether a file has stood still long enough to be complete. */
  function settled(file: string, now: number): boolean {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(path.join(deps.dir, file));
    } catch {
      seen.delete(file);
      return false;
    }
    const previous = seen.get(file);
    if (!previous || previous.size !== stat.size || previous.mtimeMs !== stat.mtimeMs) {
      seen.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, since: now });
      return false;
    }
    return stat.size > 0 && now - previous.since >= settleMs;
  }

  function age(file: string, now: number): number {
    const s = seen.get(file);
    return s ? now - s.since : 0;
  }

  function moveAside(file: string, into: string): void {
    const from = path.join(deps.dir, file);
    let to = path.join(into, file);
    // Never overwrite an earlier drop of the same name.
    if (fs.existsSync(to)) to = path.join(into, `${deps.clock.now().getTime()}-${file}`);
    fs.renameSync(from, to);
    seen.delete(file);
  }

  function reject(name: string, files: string[], reason: string): void {
    for (const file of files) moveAside(file, rejected);
    fs.writeFileSync(path.join(rejected, `${name}.reason.txt`), `${reason}\n`);
    log(`hot folder: rejected a drop (${files.length} file(s))`);
  }

  function group(files: string[]): Map<string, Group> {
    const groups = new Map<string, Group>();
    const of = (name: string) => {
      const g = groups.get(name) ?? { unknown: [] };
      groups.set(name, g);
      return g;
    };
    for (const file of files) {
      const card = CARD_FILE.exec(file);
      const sidecar = SIDECAR.exec(file);
      if (card?.groups) of(card.groups.name)[card.groups.side.toLowerCase() as 'front' | 'back'] = file;
      else if (sidecar?.groups) of(sidecar.groups.name).sidecar = file;
      else of(file).unknown.push(file);
    }
    return groups;
  }

  async function ingest(g: Group & { front: string }): Promise<string> {
    const files = [g.front, g.back, g.sidecar].filter((f): f is string => !!f);
    let sidecar: InboxSidecar | undefined;
    if (g.sidecar) {
      let json: unknown;
      try {
        json = JSON.parse(fs.readFileSync(path.join(deps.dir, g.sidecar), 'utf8'));
      } catch {
        throw new ServiceError('validation_failed', `${g.sidecar} is not valid JSON.`);
      }
      sidecar = parseOrThrow(InboxSidecar, json);
      if ('patient_id' in sidecar) await deps.service.get('patients', sidecar.patient_id);
    }
    const upload = async (file: string) => {
      const ext = CARD_FILE.exec(file)!.groups!.ext.toLowerCase();
      const bytes = new Uint8Array(fs.readFileSync(path.join(deps.dir, file)));
      return { bytes, content_type: TYPES[ext], key: (await deps.service.uploadPhoto({ content_type: TYPES[ext], bytes })).object_key };
    };
    const front = await upload(g.front);
    const back = g.back ? await upload(g.back) : undefined;
    const id = deps.ids.next(ID_PREFIX.inbox_item);
    deps.db
      .insert(inbox_items)
      .values({
        id,
        front_photo_object_key: front.key,
        back_photo_object_key: back?.key,
        ...(sidecar && 'patient_id' in sidecar ? { patient_id: sidecar.patient_id } : {}),
        ...(sidecar && 'first_name' in sidecar
          ? { patient_first_name: sidecar.first_name, patient_last_name: sidecar.last_name, patient_date_of_birth: sidecar.date_of_birth }
          : {}),
        extraction_status: deps.extractor ? 'pending' : 'failure',
        extraction_failure_reason: deps.extractor ? null : 'no_engine',
        state: 'new',
        created_at: deps.clock.now().toISOString(),
      })
      .run();
    for (const file of files) moveAside(file, processed);
    deps.events.emit('records.changed', { collection: 'inbox_items', id });
    log(`hot folder: made inbox item ${id}`);
    if (deps.extractor) void extract(id, [front, ...(back ? [back] : [])]);
    return id;
  }

  async function extract(id: string, images: { bytes: Uint8Array; content_type: string }[]): Promise<void> {
    try {
      // Every page: the payer directory has far more than one page of payers.
      const entities = await knownEntities(deps.service);
      const { fields } = await deps.extractor!.extract(images, { entities });
      deps.db.update(inbox_items).set({ extraction_status: 'success', extraction_fields: fields }).where(eq(inbox_items.id, id)).run();
    } catch (error) {
      const reason = error instanceof Error && 'reason' in error ? String((error as { reason: unknown }).reason) : 'extraction_failed';
      deps.db.update(inbox_items).set({ extraction_status: 'failure', extraction_failure_reason: reason }).where(eq(inbox_items.id, id)).run();
    }
    deps.events.emit('records.changed', { collection: 'inbox_items', id });
  }

  function describe(error: unknown): string {
    if (error instanceof ServiceError) {
      const details = error.errors?.map((e) => `- ${e.path || 'file'}: ${e.message}`).join('\n');
      return details ? `${error.message}\n${details}` : error.message;
    }
    return 'The files could not be read.';
  }

  async function scanOnce(): Promise<string[]> {
    const now = deps.clock.now().getTime();
    const files = fs
      .readdirSync(deps.dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && !IGNORED.test(entry.name))
      .map((entry) => entry.name);
    const ready = new Set(files.filter((file) => settled(file, now)));
    const made: string[] = [];
    for (const [name, g] of group(files)) {
      for (const file of g.unknown.filter((f) => ready.has(f))) {
        reject(file, [file], 'Not a card image or sidecar. Name files NAME.front.jpg (or .png), NAME.back.jpg (optional) and NAME.json (optional).');
      }
      const parts = [g.front, g.back, g.sidecar].filter((f): f is string => !!f);
      if (parts.length === 0 || !parts.every((f) => ready.has(f))) continue;
      if (!g.front) {
        if (parts.every((f) => age(f, now) >= orphanMs)) reject(name, parts, `No front image (${name}.front.jpg or .png) arrived for this drop.`);
        continue;
      }
      if (parts.length === 1 && age(g.front, now) < loneFrontMs) continue;
      try {
        made.push(await ingest({ ...g, front: g.front }));
      } catch (error) {
        reject(name, parts, describe(error));
      }
    }
    return made;
  }

  function scan(): Promise<string[]> {
    // One pass at a time: two overlapping passes must never take the same file.
    running = (running ?? Promise.resolve([])).then(scanOnce, scanOnce);
    return running;
  }

  return {
    scan,
    start() {
      const tick = () => {
        void scan()
          .catch(() => log('hot folder: a pass failed; retrying'))
          .finally(() => {
            if (timer) timer = setTimeout(tick, deps.pollMs ?? 500);
          });
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      const t = timer;
      timer = undefined;
      if (t) clearTimeout(t);
      await running;
    },
  };
}
