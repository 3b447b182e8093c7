import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BridgeError } from '../../../shared/bridge/contract';
import { useBridge } from '../bridge/bridge-provider';
import { setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatWhen } from '../format';
import { Button } from '../ui/button';
import { toBase64 } from '../ui/file-transfer';
import { Loading, Notice } from '../ui/notice';

type Note = { tone: 'ok' | 'bad' | 'warn'; text: string; rows?: string[] };

function refusal(error: BridgeError): Note {
  return { tone: 'bad', text: `Nothing was imported: ${error.errors?.length ? 'fix these entries and import the file again.' : error.message}`, rows: error.errors?.map((e) => e.message) };
}

/**
 * Settings: the SMART Health Card issuers the desk trusts (issue 27). A digital card signed by
 * one of them is shown as verified; any other is read but marked not verified. Imported from a
 * file (works offline), refreshed from the directories that file names.
 */
export function TrustedIssuersPanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const directory = useBridgeQuery('digitalCards.issuers', {});
  const [note, setNote] = useState<Note | null>(null);
  const [busy, setBusy] = useState(false);
  const value = directory.data;

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    setNote(null);
    const result = await bridge.digitalCards.importIssuers({ data_base64: toBase64(new Uint8Array(await file.arrayBuffer())), file_name: file.name });
    if (!result.ok) return setNote(refusal(result.error));
    setBridgeData(queries, 'digitalCards.issuers', {}, result.value.directory);
    setNote({ tone: 'ok', text: `Imported ${result.value.imported} ${result.value.imported === 1 ? 'issuer' : 'issuers'} from ${file.name}.` });
  };

  const refresh = async () => {
    setBusy(true);
    setNote(null);
    const result = await bridge.digitalCards.refreshIssuers({});
    setBusy(false);
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.message });
    setBridgeData(queries, 'digitalCards.issuers', {}, result.value.directory);
    const { refreshed, failures, offline } = result.value;
    if (offline) return setNote({ tone: 'warn', text: 'The desk is offline: the issuers it has keep verifying cards. Refresh again when online.' });
    setNote({
      tone: failures.length ? 'warn' : 'ok',
      text: `Refreshed ${refreshed} ${refreshed === 1 ? 'issuer' : 'issuers'}.${failures.length ? ' Some could not be read; what the desk had of them is kept:' : ''}`,
      rows: failures.map((f) => `${f.url}: ${f.reason}`),
    });
  };

  return (
    <section className="panel" aria-labelledby="settings-trusted-issuers" data-testid="trusted-issuers">
      <div className="panel__header">
        <h2 id="settings-trusted-issuers">Digital cards: trusted issuers</h2>
      </div>
      <div className="stack">
        <p className="muted">
          A digital insurance card (SMART Health Card) signed by one of these issuers is shown as verified; from anyone else its values are offered as not verified. Import the issuers file (JSON) from your
          IT or a directory; it may also name directories to refresh from when online.
        </p>
        <div className="row">
          <label className="button button--primary">
            Import issuers…
            <input type="file" accept=".json,application/json" className="visually-hidden" aria-label="Choose a trusted-issuers file" data-testid="trusted-issuers-file" onChange={(event) => void importFile(event.target.files?.[0])} />
          </label>
          <Button onClick={() => void refresh()} disabled={busy || !value || value.directory_urls.length === 0}>
            {busy ? 'Refreshing…' : 'Refresh from directories'}
          </Button>
        </div>
        {note && (
          <Notice tone={note.tone} live>
            {note.text}
            {note.rows && note.rows.length > 0 && (
              <ul data-testid="trusted-issuers-errors">
                {note.rows.map((row) => (
                  <li key={row}>{row}</li>
                ))}
              </ul>
            )}
          </Notice>
        )}
        {directory.loading && !value ? (
          <Loading label="Reading the trusted issuers…" />
        ) : !value ? (
          <Notice tone="warn">The trusted issuers are not available: {directory.error?.message}</Notice>
        ) : value.issuers.length === 0 ? (
          <p>No trusted issuers yet: digital cards are read, and marked not verified.</p>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="Trusted issuers">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Issuer (iss)</th>
                  <th scope="col">Keys</th>
                  <th scope="col">Last refreshed</th>
                </tr>
              </thead>
              <tbody>
                {value.issuers.map((issuer) => (
                  <tr key={issuer.iss}>
                    <td>{issuer.name}</td>
                    <td className="mono small trusted-issuers__iss">{issuer.iss}</td>
                    <td>
                      {issuer.kids.length}
                      {issuer.revoked > 0 && <span className="muted small"> ({issuer.revoked} revoked cards)</span>}
                    </td>
                    <td>{issuer.refreshed_at ? `${formatWhen(issuer.refreshed_at)}${issuer.source === 'file' ? ' (file)' : ''}` : <span className="muted">never: no keys yet</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {value && value.directory_urls.length > 0 && <p className="muted small">Directories: {value.directory_urls.join(', ')}</p>}
      </div>
    </section>
  );
}
