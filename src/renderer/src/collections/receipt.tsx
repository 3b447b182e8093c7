import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import type { Collection } from '../../../shared/bridge/collection-contract';
import { useBridge } from '../bridge/bridge-provider';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatCents, formatDateTime } from '../format';
import { Button } from '../ui/button';

const METHOD_WORDS = { cash: 'Cash', check: 'Check', card: 'Card' } as const;

function methodLine(entry: Collection): string {
  if (!entry.method) return '';
  if (entry.method === 'check') return `Check no. ${entry.check_number ?? ''}`;
  if (entry.method === 'card') return `Card (terminal ref. ${entry.card_reference ?? ''})`;
  return METHOD_WORDS[entry.method];
}

/** The receipt's words: practice, amount, method, date, who; a void says what it undoes. */
function ReceiptBody({ entry, practiceName }: { entry: Collection; practiceName: string | null }) {
  const title = entry.kind === 'void' ? 'Void' : entry.kind === 'payment' ? 'Receipt' : entry.kind === 'declined' ? 'Payment declined' : 'Payment waived';
  return (
    <div className="receipt" data-testid="receipt">
      <p className="receipt__practice" data-testid="receipt-practice">
        {practiceName ?? 'Practice name not set (Settings → Receipts)'}
      </p>
      <h2 className="receipt__title">{title}</h2>
      <dl className="receipt__lines">
        <dt>Amount</dt>
        <dd data-testid="receipt-amount">{entry.kind === 'void' ? `−${formatCents(entry.amount_cents)}` : formatCents(entry.amount_cents)}</dd>
        {entry.method && (
          <>
            <dt>Method</dt>
            <dd data-testid="receipt-method">{methodLine(entry)}</dd>
          </>
        )}
        <dt>Date</dt>
        <dd>{formatDateTime(entry.created_at)}</dd>
        <dt>Taken by</dt>
        <dd data-testid="receipt-taken-by">{entry.taken_by}</dd>
        {entry.reason && (
          <>
            <dt>Reason</dt>
            <dd>{entry.reason}</dd>
          </>
        )}
        <dt>Receipt no.</dt>
        <dd className="mono small">{entry.id}</dd>
        {entry.voids_id && (
          <>
            <dt>Undoes</dt>
            <dd className="mono small">{entry.voids_id}</dd>
          </>
        )}
      </dl>
      {entry.voided_by_id && <p className="receipt__void">VOIDED ({entry.voided_by_id})</p>}
    </div>
  );
}

/**
 * The printable receipt (issue 30, item 3). Printing shows only the receipt: it is drawn a
 * second time straight under <body> and the rest of the page is hidden while the print runs
 * (window.print(): in the desktop app the system dialog saves it as a PDF too). Who printed
 * which entry is audited.
 */
export function ReceiptView({ entry, onClose }: { entry: Collection; onClose(): void }) {
  const bridge = useBridge();
  const desk = useBridgeQuery('collections.deskSettings', {});
  const practiceName = desk.data?.practice_name ?? null;
  useEffect(() => {
    const done = () => document.body.classList.remove('printing-receipt');
    window.addEventListener('afterprint', done);
    return () => {
      window.removeEventListener('afterprint', done);
      done();
    };
  }, []);
  return (
    <section className="panel receipt-panel" aria-label="Receipt" data-testid="receipt-view">
      <ReceiptBody entry={entry} practiceName={practiceName} />
      <div className="row no-print">
        <Button
          variant="primary"
          data-testid="receipt-print"
          onClick={() => {
            void bridge.audit.record({ action: 'print', record_id: entry.id });
            document.body.classList.add('printing-receipt');
            window.print();
          }}
        >
          Print receipt
        </Button>
        <Button onClick={onClose}>Close receipt</Button>
      </div>
      {createPortal(
        <div className="receipt-print" aria-hidden="true">
          <ReceiptBody entry={entry} practiceName={practiceName} />
        </div>,
        document.body,
      )}
    </section>
  );
}
