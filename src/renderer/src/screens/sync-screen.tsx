import { useState } from 'react';
import type { SyncItem } from '../../../shared/bridge/desk-contract';
import { SyncState } from '../../../shared/contract';
import { SYNC_PHASE_LABELS, syncPhase, type SyncPhase } from '../../../shared/bridge/sync-phase';
import { formatWhen } from '../format';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { useDeskStatus } from '../state/desk-status';
import { Badge, SyncBadge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { ScreenTitle } from '../ui/screen-title';
import { PracticePanel } from '../sync/practice-panel';
import { OnlyHereLine } from '../sync/only-here';

const ATTENTION: SyncState[] = ['failed', 'needs_review', 'blocked'];
const WAITING: SyncState[] = ['queued', 'sending'];
const PHASE_ORDER: SyncPhase[] = ['sending', 'needs_you', 'waiting', 'sent'];

/** Where the outbox stands, and what a person must decide: retry or discard each failed item. */
export function SyncScreen() {
  const bridge = useBridge();
  const { sync, reload } = useDeskStatus();
  // Sync progress and changed records refresh both lists: see bridge-invalidation.ts.
  const attention = useBridgeQuery('sync.list', { states: ATTENTION });
  const waiting = useBridgeQuery('sync.list', { states: WAITING });
  const refresh = () => {
    attention.reload();
    waiting.reload();
  };

  const [discarding, setDiscarding] = useState<SyncItem | null>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);

  const retry = async (item: SyncItem) => {
    const result = await bridge.sync.retry({ id: item.id });
    setMessage(result.ok ? { tone: 'ok', text: `“${item.description}” will be sent again.` } : { tone: 'bad', text: result.error.message });
    refresh();
    reload();
  };
  const discard = async (item: SyncItem) => {
    setDiscarding(null);
    const result = await bridge.sync.discard({ id: item.id });
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
              {sync.storage === 'full' && (
                <Notice tone="warn">
                  Sending and pulling are paused: the disk is full, so what the service answers cannot be saved. Free some space on this computer; they go
                  on by themselves.
                </Notice>
              )}
              {sync.storage === 'low' && <Notice tone="warn">The disk is nearly full (less than 500 MB free). Free some space before new records can no longer be saved.</Notice>}
              <OnlyHereLine />
              <div className="counts" data-testid="sync-counts">
                {PHASE_ORDER.map((phase) => (
                  <div key={phase} className="count">
                    <p className="count__value">{SyncState.options.filter((state) => syncPhase(state) === phase).reduce((sum, state) => sum + sync.counts[state], 0)}</p>
                    <p className="small muted">{SYNC_PHASE_LABELS[phase]}</p>
                  </div>
                ))}
              </div>
            </>
          )}
        </Panel>
      )}

      <PracticePanel />

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
                  <p>{item.reason}</p>
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
                <span>
                  {item.description}
                  <span className="small muted"> · {item.reason}</span>
                </span>
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
