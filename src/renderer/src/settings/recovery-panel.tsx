import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RECOVERY_SHEET_INSTRUCTIONS, type RecoverySheet } from '../../../shared/bridge/recovery-contract';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatWhen } from '../format';
import { Button } from '../ui/button';
import { Loading, Notice } from '../ui/notice';
import './recovery-sheet.css';

/**
 * Settings → Recovery sheet (issue 28, item 5): whether this desk has a recovery code and
 * whether it was used, and a new sheet on demand, shown once and printed (or saved as PDF
 * through the print dialog). The code is held only in this component's state while shown.
 */
export function RecoveryPanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const status = useBridgeQuery('recovery.status', {});
  const [sheet, setSheet] = useState<RecoverySheet | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const value = status.data;

  const makeSheet = async () => {
    setProblem(null);
    const result = await bridge.recovery.newSheet({});
    if (!result.ok) return setProblem(result.error.message);
    setSheet(result.value);
    void queries.invalidateQueries();
  };

  return (
    <section className="panel" aria-labelledby="settings-recovery" data-testid="recovery">
      <div className="panel__header">
        <h2 id="settings-recovery">Recovery sheet</h2>
      </div>
      <div className="stack">
        <p className="muted">
          A one-time code on paper: it opens this desk when the manager is away or has forgotten the PIN, when the computer has lost Coverdesk’s key (after a password reset), and on a
          new computer with a backup.
        </p>
        {status.loading && !value ? (
          <Loading label="Reading the recovery sheet…" />
        ) : !value ? (
          <Notice tone="warn">The recovery sheet is not available: {status.error?.message}</Notice>
        ) : value.used_at ? (
          <Notice tone="warn">The recovery code was used {formatWhen(value.used_at)} and works no more. Print a new recovery sheet and destroy the old one.</Notice>
        ) : value.made_at ? (
          <p data-testid="recovery-made">This desk’s recovery sheet was made {formatWhen(value.made_at)}.</p>
        ) : (
          <Notice tone="warn">This desk has no recovery sheet yet: without one, a lost key loses the records on this computer.</Notice>
        )}
        {problem && <Notice tone="bad">{problem}</Notice>}
        {sheet ? (
          <RecoverySheetView sheet={sheet} onDone={() => setSheet(null)} />
        ) : (
          <div>
            <Button variant={value?.made_at && !value.used_at ? 'secondary' : 'primary'} onClick={() => void makeSheet()}>
              {value?.made_at ? 'Make a new recovery sheet' : 'Make the recovery sheet'}
            </Button>
            {value?.made_at && !value.used_at && <p className="muted small">A new sheet makes the current one stop working.</p>}
          </div>
        )}
      </div>
    </section>
  );
}

/** The sheet as printed: shown once; "Done" forgets the code. */
export function RecoverySheetView({ sheet, onDone }: { sheet: RecoverySheet; onDone: () => void }) {
  // While the sheet is shown, printing (its button or Ctrl+P) prints the sheet alone. Only then:
  // the stylesheet is loaded for good once Settings has been, and must not blank other prints.
  useEffect(() => {
    document.body.classList.add('printing-recovery-sheet');
    return () => document.body.classList.remove('printing-recovery-sheet');
  }, []);
  return (
    <div className="recovery-sheet stack" data-testid="recovery-sheet">
      <h3>Coverdesk recovery sheet</h3>
      <dl className="recovery-sheet__facts">
        <dt>Practice</dt>
        <dd>{sheet.practice_name ?? 'not named yet (Settings → Receipts)'}</dd>
        <dt>Desk</dt>
        <dd>{sheet.desk}</dd>
        <dt>Made</dt>
        <dd>{new Date(sheet.made_at).toLocaleString()}</dd>
      </dl>
      <p className="recovery-sheet__code mono" aria-label="Recovery code" data-testid="recovery-code">
        {sheet.code}
      </p>
      <ul>
        {RECOVERY_SHEET_INSTRUCTIONS.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div className="recovery-sheet__actions">
        <Button variant="primary" onClick={() => window.print()}>
          Print or save as PDF
        </Button>
        <Button onClick={onDone}>Done: it is printed</Button>
      </div>
      <p className="muted small recovery-sheet__actions">This code is shown only now: Coverdesk does not keep it.</p>
    </div>
  );
}
