import { useState } from 'react';
import type { SyncItem } from '../../../shared/bridge/desk-contract';
import type { SyncState } from '../../../shared/contract';
import { SYNC_STATE_LABELS, formatWhen } from '../format';
import { useBridgeQuery, useRecordsChanged, useSyncStatusChanged } from '../state/bridge-hooks';
import { useDeskStatus } from '../state/desk-status';
import { Badge, SyncBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { ScreenTitle } from '../ui/screen-title';

const ATTENTION: SyncState[] = ['failed', 'needs_review', 'blocked'];
const WAITING: SyncState[] = ['queued', 'sending'];
const COUNT_ORDER: SyncState[] = ['queued', 'sending', 'failed', 'blocked', 'needs_review', 'synced'];

/** Where the outbox stands, and what a person must decide: retry or discard each failed item. */
export function SyncScreen() {
  const { sync, reload } = useDeskStatus();
  const attention = useBridgeQuery(() => window.coverdesk.sync.list({ states: ATTENTION }), 'sync-attention');
  const waiting = useBridgeQuery(() => window.coverdesk.sync.list({ states: WAITING }), 'sync-waiting');
  const refresh = () => {
    attention.reload();
    waiting.reload();
  };
  useSyncStatusChanged(refresh, 500);
  useRecordsChanged(['patients', 'insurance_cards', 'electronic_eligibility_checks', 'electronic_eligibility_discoveries', 'extractions', 'photos'], refresh, 300);

  const [discarding, setDiscarding] = useState<SyncItem | null>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);

  const retry = async (item: SyncItem) => {
    const result = await window.coverdesk.sync.retry({ id: item.id });
    setMessage(result.ok ? { tone: 'ok', text: `“${item.description}” will be sent again.` } : { tone: 'bad', text: result.error.message });
    refresh();
    reload();
  };
  const discard = async (item: SyncItem) => {
    setDiscarding(null);
    const result = await window.coverdesk.sync.discard({ id: item.id });
    setMessage(result.ok ? { tone: 'ok', text: `“${item.description}” was discarded: it will not be sent.` } : { tone: 'bad', text: result.error.message });
    refresh();
    reload();
  };

  const unavailable = !sync && attention.error;
  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle subtitle="Everything is saved on this computer first, then sent to the eligibility service.">Sync</ScreenTitle>
        <Button onClick={() => { refresh(); reload(); }}>Refresh</Button>
      </div>

      {unavailable ? (
        <Notice tone="warn">Sync status is not available right now: {attention.error?.message}</Notice>
      ) : (
        <Panel title="Connection" titleId="sync-connection">
          {!sync ? (
            <Loading label="Reading the sync status…" />
          ) : (
            <>
              <div className="row">
                {sync.online === true && <Badge tone="ok">Online</Badge>}
                {sync.online === false && <Badge tone="bad">Offline</Badge>}
                {sync.online === null && <Badge tone="neutral">Not tried yet</Badge>}
                <span>
                  {sync.mode === 'sandbox' ? 'Sandbox (built-in practice service)' : `Upstream: ${sync.upstream_url ?? 'not set'}`}
                </span>
                <span className="muted">Last sync: {sync.last_sync_at ? formatWhen(sync.last_sync_at) : 'never'}</span>
                {sync.worker !== 'running' && <Badge tone="warn">Sending is {sync.worker === 'paused' ? 'paused' : 'not running'}</Badge>}
              </div>
              <div className="counts" data-testid="sync-counts">
                {COUNT_ORDER.map((state) => (
                  <div key={state} className="count">
                    <p className="count__value">{sync.counts[state]}</p>
                    <p className="small muted">{SYNC_STATE_LABELS[state]}</p>
                  </div>
                ))}
              </div>
            </>
          )}
        </Panel>
      )}

      {message && (
        <Notice tone={message.tone} live>
          {message.text}
        </Notice>
      )}

      <Panel title="Needs attention" titleId="sync-attention">
        {attention.loading ? (
          <Loading label="Loading…" />
        ) : (attention.data?.data.length ?? 0) === 0 ? (
          <EmptyState title="Nothing needs attention.">Items the service refuses appear here, with its reason.</EmptyState>
        ) : (
          <ul className="plain-list stack">
            {attention.data?.data.map((item) => (
              <li key={item.id} className="timeline__item" data-testid="sync-item">
                <div className="stack">
                  <p>
                    <strong>{item.description}</strong> <SyncBadge state={item.state} />
                  </p>
                  {item.last_error && item.state !== 'blocked' && <p>The service said: {item.last_error.message}</p>}
                  {item.state === 'blocked' && <p className="small muted">Waiting for an item it depends on: fix or discard that one first.</p>}
                  <p className="small muted">
                    {item.attempts} {item.attempts === 1 ? 'attempt' : 'attempts'} · last change {formatWhen(item.updated_at)}
                  </p>
                </div>
                <div className="row">
                  {item.state !== 'blocked' && (
                    <Button variant="primary" size="small" onClick={() => void retry(item)}>
                      Retry
                    </Button>
                  )}
                  <Button variant="danger" size="small" onClick={() => setDiscarding(item)}>
                    Discard…
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel title="Waiting to send" titleId="sync-waiting">
        {(waiting.data?.data.length ?? 0) === 0 ? (
          <p className="muted">Nothing is waiting.</p>
        ) : (
          <ul className="plain-list stack">
            {waiting.data?.data.slice(0, 100).map((item) => (
              <li key={item.id} className="timeline__item">
                <span>{item.description}</span>
                <span className="row">
                  <SyncBadge state={item.state} />
                  <span className="small muted">since {formatWhen(item.created_at)}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <ConfirmDialog
        open={discarding !== null}
        title="Discard this item?"
        message={`“${discarding?.description ?? ''}” will never be sent to the eligibility service, and items that depend on it will not be sent either. This cannot be undone.`}
        confirmLabel="Discard"
        onCancel={() => setDiscarding(null)}
        onConfirm={() => discarding && void discard(discarding)}
      />
    </div>
  );
}
