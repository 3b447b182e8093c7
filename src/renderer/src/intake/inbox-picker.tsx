import type { InboxItem } from '../../../shared/contract';
import { formatDob, formatWhen } from '../format';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { Button } from '../ui/button';
import { EmptyState, Loading, Notice, Panel } from '../ui/notice';
import { PhotoThumb } from './photo-thumb';

/** Cards the scanner dropped in the hot folder, newest first, waiting for the desk. */
export function InboxPicker({ chosenId, onUse }: { chosenId: string | null; onUse(item: InboxItem): void }) {
  const bridge = useBridge();
  // A scan arriving in the hot folder refreshes it: see bridge-invalidation.ts.
  const inbox = useBridgeQuery('inbox.list', { state: 'new' });

  const dismiss = async (item: InboxItem) => {
    await bridge.inbox.resolve({ id: item.id, state: 'dismissed' });
    inbox.reload();
  };

  const items = inbox.data?.data ?? [];
  return (
    <Panel title="Scanned cards" titleId="inbox-title" actions={<Button size="small" onClick={inbox.reload}>Refresh</Button>}>
      {inbox.error && !inbox.data && <Notice tone="warn">The scanned-card inbox could not be read: {inbox.error.message}</Notice>}
      {inbox.loading ? (
        <Loading label="Looking for scanned cards…" />
      ) : items.length === 0 ? (
        <EmptyState title="No scanned cards waiting.">Cards scanned into the hot folder appear here.</EmptyState>
      ) : (
        <ul className="plain-list stack" aria-labelledby="inbox-title">
          {items.map((item) => {
            const who = item.patient_last_name ? `${item.patient_last_name}, ${item.patient_first_name ?? ''}` : 'Patient not named';
            return (
              <li key={item.id} className="inbox-item">
                <PhotoThumb objectKey={item.front_photo_object_key} alt={`Scanned card for ${who}`} />
                <div>
                  <p>
                    <strong>{who}</strong>
                    {item.patient_date_of_birth && <span className="muted"> · born {formatDob(item.patient_date_of_birth)}</span>}
                  </p>
                  <p className="small muted">
                    Scanned {formatWhen(item.created_at)}
                    {item.extraction_fields?.member_id && ` · member id ${item.extraction_fields.member_id.value}`}
                    {item.back_photo_object_key ? ' · front and back' : ' · front only'}
                  </p>
                </div>
                <div className="row">
                  <Button variant={chosenId === item.id ? 'secondary' : 'primary'} size="small" onClick={() => onUse(item)} aria-pressed={chosenId === item.id}>
                    {chosenId === item.id ? 'In use' : 'Use this scan'}
                  </Button>
                  <Button size="small" onClick={() => void dismiss(item)}>
                    Set aside
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}
