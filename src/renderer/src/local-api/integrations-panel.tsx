import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Integration } from '../../../shared/bridge/desk-contract';
import { useBridge } from '../bridge/bridge-provider';
import { bridgeKey } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatWhen } from '../format';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { TextField } from '../ui/field';
import { Loading, Notice } from '../ui/notice';

type Note = { tone: 'ok' | 'bad' | 'info'; text: string } | null;

/**
 * Settings: one token per program that uses the local API (issue 28, item 6), so the audit
 * names the program and one can be cut off alone. A token is shown once, when made: only its
 * hash is kept, so a lost one is replaced, never shown again.
 */
export function IntegrationsPanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const list = useBridgeQuery('localApi.integrations', {});
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<Integration | null>(null);
  const [note, setNote] = useState<Note>(null);
  const refresh = () => void queries.invalidateQueries({ queryKey: bridgeKey('localApi.integrations') });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setNote(null);
    const result = await bridge.localApi.addIntegration({ name });
    if (!result.ok) {
      const message = result.error.errors?.find((e) => e.path === 'name')?.message;
      setNameError(message ?? result.error.message);
      return;
    }
    setNameError(undefined);
    setName('');
    setMade({ name: result.value.integration.name, token: result.value.token });
    refresh();
  };

  const revoke = async (integration: Integration) => {
    setRevoking(null);
    const result = await bridge.localApi.revokeIntegration({ id: integration.id });
    setNote(result.ok ? { tone: 'ok', text: `${integration.name}'s token no longer works.` } : { tone: 'bad', text: result.error.message });
    refresh();
  };

  const copy = async (token: string) => {
    try {
      await navigator.clipboard.writeText(token);
      setNote({ tone: 'ok', text: 'Token copied.' });
    } catch {
      setNote({ tone: 'info', text: 'Copying is not allowed here: select the token and copy it by hand.' });
    }
  };

  return (
    <section className="panel" aria-labelledby="settings-api-programs">
      <div className="panel__header">
        <h3 id="settings-api-programs">Programs using the local API</h3>
      </div>
      <div className="stack">
        <p>Give each program that uses the local API its own token: the audit log then names the program, and one can be cut off without the others.</p>
        <form className="row row--bottom" onSubmit={(event) => void add(event)}>
          <TextField id="integration-name" label="Program name" placeholder="e.g. Front-desk scanner" value={name} onChange={setName} error={nameError} autoComplete="off" maxLength={80} />
          <Button type="submit">Make a token</Button>
        </form>
        {made && (
          <Notice tone="ok" live>
            <span>
              Token for <strong>{made.name}</strong>, shown this once: <span className="mono" data-testid="integration-token">{made.token}</span>{' '}
            </span>
            <Button size="small" onClick={() => void copy(made.token)}>
              Copy token
            </Button>{' '}
            <Button size="small" onClick={() => setMade(null)}>
              Done
            </Button>
          </Notice>
        )}
        {note && (
          <Notice tone={note.tone} live>
            {note.text}
          </Notice>
        )}
        {list.loading && !list.data ? (
          <Loading label="Reading the integrations…" />
        ) : !list.data ? (
          <Notice tone="warn">The integrations could not be read: {list.error?.message}</Notice>
        ) : list.data.length === 0 ? (
          <p className="muted">No named integrations yet. Programs using the token above are audited as the local API.</p>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Programs and their tokens">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Program</th>
                  <th scope="col">Made</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Token</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((integration) => (
                  <tr key={integration.id}>
                    <td>{integration.name}</td>
                    <td>{formatWhen(integration.created_at)}</td>
                    <td>{integration.last_used_at ? formatWhen(integration.last_used_at) : 'Never'}</td>
                    <td>
                      {integration.revoked_at ? (
                        <Badge tone="neutral">Revoked {formatWhen(integration.revoked_at)}</Badge>
                      ) : (
                        <Button size="small" variant="danger" onClick={() => setRevoking(integration)} aria-label={`Revoke ${integration.name}'s token`}>
                          Revoke…
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? ''}'s token?`}
        message="The program is refused from now on. It stays listed here and in the audit log; give it a new token to let it in again."
        confirmLabel="Revoke the token"
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      />
    </section>
  );
}
