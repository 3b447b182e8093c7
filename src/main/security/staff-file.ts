import { randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { StaffFileExportInput, StaffFileImportInput, StaffId, StaffRole, type StaffFile } from '../../shared/bridge/staff-contract';
import { Timestamp } from '../../shared/contract';
import { parseOrThrow, ServiceError } from '../../shared/service-error';
import type { AuditLog } from '../audit/audit-log';
import { inTransaction, type Db } from '../db/open-database';
import { staff } from '../db/schema';
import { seal, unseal, type SealedKind } from '../db/sealed-file';
import { PIN_KDF, StoredPin } from './workstation-lock';

const SEALED_STAFF_FILE: SealedKind = { magic: 'CDF1', info: 'coverdesk staff file v1', what: 'The staff file' };
const LABEL = 'coverdesk staff list';
const SALT_BYTES = 16;

const Contents = z.object({
  practice_id: z.string(),
  staff: z.array(
    z.object({ id: StaffId, name: z.string().min(1).max(80), role: StaffRole, pin: StoredPin, created_at: Timestamp, disabled_at: Timestamp.nullable() }),
  ),
});

/** The file's key from the manager's passphrase: the lock's scrypt, so a stolen file is as slow to guess as a PIN hash. */
function fileKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  const options: ScryptOptions = { N: PIN_KDF.N, r: PIN_KDF.r, p: PIN_KDF.p, maxmem: 256 * PIN_KDF.N * PIN_KDF.r };
  return new Promise((resolve, reject) => scrypt(passphrase, salt, 32, options, (error, key) => (error ? reject(error) : resolve(key))));
}

const refusedFile = () =>
  new ServiceError('staff_file_unreadable', 'This staff file cannot be opened: the passphrase is wrong, or the file was changed or damaged. Nothing was changed.', [
    { path: 'data_base64', code: 'unreadable', message: 'data_base64 must be a staff file exported by Coverdesk, opened with its passphrase.' },
  ]);

/**
 * The staff list carried between the practice's desks (issue 28, item 7). Layout: salt (16) |
 * the sealed JSON (AES-256-GCM, `sealed-file.ts`). An import adds the people it does not have
 * and brings the others' name, role, PIN and disabled state in line, in one transaction.
 */
export function createStaffFile(deps: { db: Db; audit: AuditLog; practiceId: () => string }) {
  const { db } = deps;
  return {
    async exportFile(input: unknown): Promise<StaffFile> {
      const { passphrase } = parseOrThrow(StaffFileExportInput, input);
      const rows = db.select().from(staff).all();
      const contents = {
        practice_id: deps.practiceId(),
        staff: rows.map((r) => ({ id: r.id, name: r.name, role: r.role, pin: r.pin, created_at: r.created_at, disabled_at: r.disabled_at })),
      };
      const salt = randomBytes(SALT_BYTES);
      const sealed = seal(await fileKey(passphrase, salt), SEALED_STAFF_FILE, LABEL, Buffer.from(JSON.stringify(contents), 'utf8'));
      return { filename: 'coverdesk-staff.cdstaff', data_base64: Buffer.concat([salt, sealed]).toString('base64') };
    },

    async importFile(input: unknown): Promise<{ added: number; updated: number }> {
      const { passphrase, data_base64 } = parseOrThrow(StaffFileImportInput, input);
      const bytes = Buffer.from(data_base64, 'base64');
      if (bytes.length <= SALT_BYTES) throw refusedFile();
      let contents: z.infer<typeof Contents>;
      try {
        const plain = unseal(await fileKey(passphrase, bytes.subarray(0, SALT_BYTES)), SEALED_STAFF_FILE, LABEL, bytes.subarray(SALT_BYTES));
        contents = Contents.parse(JSON.parse(plain.toString('utf8')));
      } catch {
        throw refusedFile();
      }
      if (contents.practice_id !== deps.practiceId()) {
        throw new ServiceError('staff_file_other_practice', `This staff file is from another practice (${contents.practice_id}; this desk belongs to ${deps.practiceId()}). Nothing was changed.`, [
          { path: 'data_base64', code: 'other_practice', message: 'data_base64 must be a staff file from this practice.' },
        ]);
      }
      return inTransaction(db, () => {
        let added = 0;
        let updated = 0;
        for (const person of contents.staff) {
          const clash = db.$client.prepare('SELECT id FROM staff WHERE lower(name) = lower(?) AND id != ?').get(person.name, person.id) as { id: string } | undefined;
          if (clash) {
            throw new ServiceError('validation_failed', `Someone else at this desk is already called ${person.name}: rename them first. Nothing was changed.`, [
              { path: 'data_base64', code: 'name_taken', message: 'each name in the staff file must be free at this desk or belong to the same person.' },
            ]);
          }
          const existing = db.select().from(staff).where(eq(staff.id, person.id)).get();
          if (!existing) {
            db.insert(staff).values({ ...person, failures: 0, retry_at: null }).run();
            deps.audit.append('staff_added', person.id);
            added++;
          } else if (existing.name !== person.name || existing.role !== person.role || existing.disabled_at !== person.disabled_at || JSON.stringify(existing.pin) !== JSON.stringify(person.pin)) {
            db.update(staff).set({ name: person.name, role: person.role, pin: person.pin, disabled_at: person.disabled_at }).where(eq(staff.id, person.id)).run();
            deps.audit.append('staff_changed', person.id);
            updated++;
          }
        }
        return { added, updated };
      });
    },
  };
}
