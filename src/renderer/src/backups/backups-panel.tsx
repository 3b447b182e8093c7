import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BackupListing, BackupStatus } from '../../../shared/bridge/backup-contract';
import { useBridge } from '../bridge/bridge-provider';
import { setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { formatWhen } from '../format';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/field';
import { Loading, Notice } from '../ui/notice';

const LABELS = { folder: 'Backup folder', every_hours: 'Back up every (hours)', keep: 'Backups kept' };

/**
 * Settings → Backups (issue 29): the folder the practice chose (typed as a path: the browser
 * mode has no folder picker), the schedule, "Back up now", the last verified backup and the
 * last failure; the backups in the folder, each one restorable (the desk restarts on it).
 */
export function BackupsPanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const status = useBridgeQuery('backups.status', {});
  const backups = useBridgeQuery('backups.list', {});
  const [restoring, setRestoring] = useState<BackupListing | null>(null);
  const [draft, setDraft] = useState<{ folder: string; every_hours: string; keep: string } | null>(null);
  const [errors, setErrors] = useState<FieldMessages>({});
  const [note, setNote] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const value = status.data;
  const form = draft ?? (value ? { folder: value.settings.folder ?? '', every_hours: String(value.settings.every_hours), keep: String(value.settings.keep) } : null);
  const show = (next: BackupStatus) => setBridgeData(queries, 'backups.status', {}, next);

  const save = async () => {
    if (!form) return;
    const every = Number(form.every_hours);
    const keep = Number(form.keep);
    const local: FieldMessages = {};
    if (!Number.isInteger(every) || every < 0 || every > 168) local.every_hours = 'Back up every (hours): a whole number from 0 (only when asked) to 168.';
    if (!Number.isInteger(keep) || keep < 1 || keep > 100) local.keep = 'Backups kept: a whole number from 1 to 100.';
    setErrors(local);
    if (Object.keys(local).length) return setNote({ tone: 'bad', text: 'Nothing was saved: see the messages below each field.' });
    const result = await bridge.backups.update({ folder: form.folder.trim() || null, every_hours: every, keep });
    if (!result.ok) {
      setErrors(plainFieldErrors(result.error, LABELS));
      return setNote({ tone: 'bad', text: `Nothing was saved. ${formMessage(result.error)}` });
    }
    show(result.value);
    setDraft(null);
    setNote({ tone: 'ok', text: 'Backup settings saved.' });
  };

  const backUpNow = async () => {
    setBusy(true);
    setNote(null);
    const result = await bridge.backups.run({});
    setBusy(false);
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.message });
    show(result.value);
    backups.reload();
    const failed = result.value.last_failure && (!result.value.last_verified || result.value.last_failure.at >= result.value.last_verified.at);
    setNote(failed ? { tone: 'bad', text: result.value.last_failure!.message } : { tone: 'ok', text: 'Backup written and verified.' });
  };

  const restore = async (backup: BackupListing) => {
    setRestoring(null);
    setBusy(true);
    setNote(null);
    const result = await bridge.backups.restore({ name: backup.name });
    setBusy(false);
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.errors?.[0]?.message ?? result.error.message });
    setNote({
      tone: 'ok',
      text: `The backup of ${formatWhen(backup.created_at)} is restored: Coverdesk restarts on it. This desk’s data from before is kept in its data folder as ${result.value.kept_aside_as}.`,
    });
  };

  const edit = (field: 'folder' | 'every_hours' | 'keep', text: string) => form && setDraft({ ...form, [field]: text });

  return (
    <section className="panel" aria-labelledby="settings-backups" data-testid="backups">
      <div className="panel__header">
        <h2 id="settings-backups">Backups</h2>
        {value?.running && <span className="muted small">backing up…</span>}
      </div>
      <div className="stack">
        <p className="muted">
          An encrypted copy of this desk (its records, what is not yet sent, and the card photos) in a folder you choose: a network share or a USB disk. Each backup is checked after it is written.
          Restoring one, or moving this desk to a new computer, needs this desk’s key as well.
        </p>
        {status.loading && !value ? (
          <Loading label="Reading the backup settings…" />
        ) : !value || !form ? (
          <Notice tone="warn">Backups are not available: {status.error?.message}</Notice>
        ) : (
          <>
            <div data-testid="backups-last">
              {value.last_verified ? (
                <p>
                  Last verified backup: <strong>{formatWhen(value.last_verified.at)}</strong> in <span className="mono">{value.last_verified.folder}</span>
                </p>
              ) : (
                <p>No verified backup yet.</p>
              )}
              {value.last_failure && (!value.last_verified || value.last_failure.at >= value.last_verified.at) && (
                <Notice tone="bad">
                  The last backup failed ({formatWhen(value.last_failure.at)}): {value.last_failure.message}
                </Notice>
              )}
              {value.next_at && <p className="muted small">Next scheduled backup: {formatWhen(value.next_at)}</p>}
            </div>
            <form
              className="stack"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              <TextField id="backups-folder" label={LABELS.folder} value={form.folder} onChange={(text) => edit('folder', text)} error={errors.folder} hint="The full path of a folder this computer can write to, for example D:\Coverdesk backups." />
              <div className="row">
                <TextField id="backups-every" label={LABELS.every_hours} inputMode="numeric" value={form.every_hours} onChange={(text) => edit('every_hours', text)} error={errors.every_hours} hint="0: only when you press Back up now." />
                <TextField id="backups-keep" label={LABELS.keep} inputMode="numeric" value={form.keep} onChange={(text) => edit('keep', text)} error={errors.keep} hint="Older ones are removed after a new one is verified." />
              </div>
              <div className="row">
                <Button type="submit">Save backup settings</Button>
                <Button variant="primary" onClick={() => void backUpNow()} disabled={busy || !value.settings.folder}>
                  {busy ? 'Backing up…' : 'Back up now'}
                </Button>
              </div>
            </form>
            {value.settings.folder && (
              <div className="stack" data-testid="backups-list">
                <h3>Backups in this folder</h3>
                {(backups.data ?? []).length === 0 ? (
                  <p className="muted">None yet that this desk can restore.</p>
                ) : (
                  <ul className="plain-list stack">
                    {backups.data!.map((backup) => (
                      <li key={backup.name} className="row row--between">
                        <span>
                          <strong>{formatWhen(backup.created_at)}</strong> <span className="muted small">{backup.records} rows · Coverdesk {backup.coverdesk_version}</span>
                        </span>
                        <Button onClick={() => setRestoring(backup)} disabled={busy}>
                          Restore…
                        </Button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </>
        )}
        {note && (
          <Notice tone={note.tone} live>
            {note.text}
          </Notice>
        )}
      </div>
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore the backup of ${restoring ? formatWhen(restoring.created_at) : ''}?`}
        message="Coverdesk restarts on it. What this desk holds now is kept aside in its data folder, not deleted; records made since that backup and not yet sent will not be in the restored desk."
        confirmLabel="Restore and restart"
        onCancel={() => setRestoring(null)}
        onConfirm={() => restoring && void restore(restoring)}
      />
    </section>
  );
}
