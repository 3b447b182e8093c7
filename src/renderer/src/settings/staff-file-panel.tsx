import { useState, type FormEvent } from 'react';
import { useBridge } from '../bridge/bridge-provider';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { Button } from '../ui/button';
import { TextField } from '../ui/field';
import { saveBase64File, toBase64 } from '../ui/file-transfer';
import { Notice } from '../ui/notice';
import { passphraseProblems, STAFF_LABELS } from './staff-form-checks';

type Note = { tone: 'ok' | 'bad'; text: string } | null;

/**
 * The staff list carried to the practice's other desks (issue 28, item 7): exported encrypted
 * under a passphrase the manager chooses, imported on the other desk with the same passphrase.
 * Another practice's file, a changed one or a wrong passphrase: the host's sentence, nothing
 * changed.
 */
export function StaffFilePanel({ onImported }: { onImported(): void }) {
  const bridge = useBridge();
  const [exportPass, setExportPass] = useState('');
  const [exportConfirm, setExportConfirm] = useState('');
  const [exportErrors, setExportErrors] = useState<FieldMessages>({});
  const [exportNote, setExportNote] = useState<Note>(null);
  const [file, setFile] = useState<File | null>(null);
  const [importPass, setImportPass] = useState('');
  const [importErrors, setImportErrors] = useState<FieldMessages>({});
  const [importNote, setImportNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);

  const exportFile = async (event: FormEvent) => {
    event.preventDefault();
    setExportNote(null);
    const problems = passphraseProblems(exportPass, exportConfirm);
    setExportErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    const result = await bridge.staff.exportFile({ passphrase: exportPass });
    setBusy(false);
    if (!result.ok) {
      setExportErrors(plainFieldErrors(result.error, STAFF_LABELS));
      setExportNote({ tone: 'bad', text: formMessage(result.error) });
      return;
    }
    saveBase64File(result.value.data_base64, result.value.filename);
    setExportPass('');
    setExportConfirm('');
    setExportNote({ tone: 'ok', text: `Saved ${result.value.filename}. Import it on the practice’s other desks with the same passphrase (tell it in person, not with the file).` });
  };

  const importFile = async (event: FormEvent) => {
    event.preventDefault();
    setImportNote(null);
    const problems: FieldMessages = file ? {} : { data_base64: `${STAFF_LABELS.data_base64}: choose the file exported on another desk.` };
    if (!importPass) problems.passphrase = `${STAFF_LABELS.passphrase} is required: the one chosen when the file was exported.`;
    setImportErrors(problems);
    if (!file || Object.keys(problems).length > 0) return;
    setBusy(true);
    const result = await bridge.staff.importFile({ passphrase: importPass, data_base64: toBase64(new Uint8Array(await file.arrayBuffer())) });
    setBusy(false);
    if (!result.ok) {
      // The file's refusals name data_base64: the host's sentence says which (another practice, changed, wrong passphrase).
      setImportErrors({});
      setImportNote({ tone: 'bad', text: result.error.message });
      return;
    }
    setImportPass('');
    const { added, updated } = result.value;
    setImportNote({ tone: 'ok', text: added + updated === 0 ? 'The staff list already matched the file: nothing changed.' : `Imported: ${added} added, ${updated} brought up to date.` });
    onImported();
  };

  return (
    <div className="stack staff-file" data-testid="staff-file">
      <h3 id="staff-file-title">The staff list on the practice’s other desks</h3>
      <p className="muted">Export the list (names, roles, PINs) as a file sealed with a passphrase, and import it on another desk of this practice: everyone signs in there with the same name and PIN.</p>
      <div className="grid-2">
        <form className="stack" onSubmit={(event) => void exportFile(event)} aria-label="Export the staff file" noValidate>
          <h4>Export, on this desk</h4>
          <TextField id="staff-export-pass" label={STAFF_LABELS.passphrase} type="password" value={exportPass} onChange={setExportPass} error={exportErrors.passphrase} hint="At least 10 characters." autoComplete="new-password" maxLength={200} />
          <TextField id="staff-export-pass-confirm" label={STAFF_LABELS.passphrase_confirm} type="password" value={exportConfirm} onChange={setExportConfirm} error={exportErrors.passphrase_confirm} autoComplete="new-password" maxLength={200} />
          {exportNote && (
            <Notice tone={exportNote.tone} live>
              {exportNote.text}
            </Notice>
          )}
          <div>
            <Button type="submit" disabled={busy}>
              Export the staff file
            </Button>
          </div>
        </form>
        <form className="stack" onSubmit={(event) => void importFile(event)} aria-label="Import a staff file" noValidate>
          <h4>Import, from another desk</h4>
          <div className="field">
            <label className="field__label" htmlFor="staff-import-file">
              {STAFF_LABELS.data_base64}
            </label>
            <input
              id="staff-import-file"
              type="file"
              accept=".cdstaff"
              className="input"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              aria-invalid={importErrors.data_base64 ? true : undefined}
              aria-describedby={importErrors.data_base64 ? 'staff-import-file-error' : undefined}
              data-testid="staff-import-file"
            />
            {importErrors.data_base64 && (
              <p className="field__error" id="staff-import-file-error">
                {importErrors.data_base64}
              </p>
            )}
          </div>
          <TextField id="staff-import-pass" label={STAFF_LABELS.passphrase} type="password" value={importPass} onChange={setImportPass} error={importErrors.passphrase} autoComplete="off" maxLength={200} />
          {importNote && (
            <Notice tone={importNote.tone} live>
              {importNote.text}
            </Notice>
          )}
          <div>
            <Button type="submit" disabled={busy}>
              Import the staff file
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}
