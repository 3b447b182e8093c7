import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useBridge } from '../bridge/bridge-provider';
import { setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

/**
 * Settings → Receipts: the practice's name printed on receipts and the end-of-day report,
 * and who is taking payments at this desk (staff accounts do not exist yet: the desk types
 * a name or initials once and it is remembered here).
 */
export function ReceiptSettingsPanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const desk = useBridgeQuery('collections.deskSettings', {});
  const [practice, setPractice] = useState<string | null>(null);
  const [takenBy, setTakenBy] = useState<string | null>(null);
  const [note, setNote] = useState<{ tone: 'ok' | 'bad'; text: string } | null>(null);
  const save = async () => {
    const update = {
      ...(practice !== null && practice.trim() ? { practice_name: practice.trim() } : {}),
      ...(takenBy !== null && takenBy.trim() ? { taken_by: takenBy.trim() } : {}),
    };
    const result = await bridge.collections.updateDeskSettings(update);
    if (!result.ok) return setNote({ tone: 'bad', text: result.error.errors?.[0]?.message ?? result.error.message });
    setBridgeData(queries, 'collections.deskSettings', {}, result.value);
    setPractice(null);
    setTakenBy(null);
    setNote({ tone: 'ok', text: 'Saved.' });
  };
  return (
    <section className="panel" aria-labelledby="settings-receipts" data-testid="receipt-settings">
      <div className="panel__header">
        <h2 id="settings-receipts">Receipts</h2>
        {desk.data && <span className="muted small">this desk: {desk.data.desk}</span>}
      </div>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label className="field">
          <span className="field__label">Practice name on receipts</span>
          <input className="input" value={practice ?? desk.data?.practice_name ?? ''} onChange={(e) => setPractice(e.target.value)} data-testid="receipt-practice-name" />
        </label>
        <label className="field">
          <span className="field__label">Taking payments at this desk (name or initials)</span>
          <input className="input" value={takenBy ?? desk.data?.taken_by ?? ''} onChange={(e) => setTakenBy(e.target.value)} data-testid="receipt-taken-by" />
        </label>
        <div className="row">
          <Button type="submit" size="small" data-testid="receipt-settings-save">
            Save
          </Button>
        </div>
        {note && (
          <Notice tone={note.tone} live>
            {note.text}
          </Notice>
        )}
      </form>
    </section>
  );
}
