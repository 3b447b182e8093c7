import { useState } from 'react';
import type { RecoverySheet } from '../../../shared/bridge/recovery-contract';
import { useBridge } from '../bridge/bridge-provider';
import { RecoverySheetView } from '../settings/recovery-panel';
import { Button } from '../ui/button';
import { useStaff } from './staff-gate';

/**
 * Right after first start (issue 28, item 1): the recovery sheet is offered, not forced. A
 * banner above the desk; printing shows the one sheet component Settings uses.
 */
export function RecoveryOffer() {
  const bridge = useBridge();
  const { dismissSetUp } = useStaff();
  const [sheet, setSheet] = useState<RecoverySheet | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const make = async () => {
    setProblem(null);
    const result = await bridge.recovery.setup({});
    if (!result.ok) return setProblem(result.error.message);
    // Null: this desk already has a sheet (Settings → Recovery sheet makes a new one).
    if (result.value === null) return dismissSetUp();
    setSheet(result.value);
  };

  if (sheet) {
    return (
      <section className="panel" aria-label="Recovery sheet">
        <RecoverySheetView sheet={sheet} onDone={dismissSetUp} />
      </section>
    );
  }
  return (
    <div className="banner banner--sandbox banner--wraps" role="region" aria-label="Recovery sheet" data-testid="recovery-offer">
      <span className="banner__text">
        <strong>Print this desk’s recovery sheet.</strong> {problem ?? 'With it, the desk opens if your PIN is forgotten or the computer’s key store is lost.'}
      </span>
      <Button size="small" variant="primary" onClick={() => void make()}>
        Print the recovery sheet
      </Button>
      <Button size="small" onClick={dismissSetUp}>
        Later
      </Button>
    </div>
  );
}
