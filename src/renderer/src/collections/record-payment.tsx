import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BridgeError } from '../../../shared/bridge/contract';
import type { Collection, CollectionCreate, PaymentMethod } from '../../../shared/bridge/collection-contract';
import { centsFromDollars, collectionProblems, looksLikeCardNumber } from '../../../shared/collections';
import { useBridge } from '../bridge/bridge-provider';
import { bridgeKey } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { formatCents } from '../format';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

/** Which visit a payment is for: an appointment, a patient (today), or the check "Collect today" was read from. */
export interface VisitRef {
  appointment_id?: string;
  patient_id?: string;
  check_id?: string;
  visit_type?: string;
}

const METHODS: { value: PaymentMethod; label: string }[] = [
  { value: 'cash', label: 'Cash' },
  { value: 'check', label: 'Check' },
  { value: 'card', label: 'Card' },
];

/** The host's refusal as the desk reads it: each field's own words. */
function refusalText(error: BridgeError): string[] {
  return error.errors?.length ? error.errors.map((e) => e.message) : [error.message];
}

/**
 * "Record payment" (issue 30, item 3): the amount in dollars (kept in whole cents), the
 * method with the check's number or the card terminal's reference (a card number is refused
 * before it is sent), and who took it (typed once, remembered by the desk). A payment above
 * the estimate asks to be confirmed. The visit can instead be marked declined or waived.
 */
export function RecordPayment({ visit, estimateMax, onRecorded, onCancel }: { visit: VisitRef; estimateMax: number | null; onRecorded(entry: Collection): void; onCancel?(): void }) {
  const bridge = useBridge();
  const queries = useQueryClient();
  const desk = useBridgeQuery('collections.deskSettings', {});
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<PaymentMethod>('cash');
  const [reference, setReference] = useState('');
  const [takenBy, setTakenBy] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [confirmOver, setConfirmOver] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const who = takenBy ?? desk.data?.taken_by ?? '';
  const cents = centsFromDollars(amount);
  const over = cents !== null && estimateMax !== null && cents > estimateMax;

  const send = async (input: CollectionCreate) => {
    setBusy(true);
    const result = await bridge.collections.record(input);
    setBusy(false);
    if (!result.ok) return setProblems(refusalText(result.error));
    void queries.invalidateQueries({ queryKey: bridgeKey('collections.deskSettings') });
    void queries.invalidateQueries({ queryKey: bridgeKey('collections.endOfDay') });
    setProblems([]);
    onRecorded(result.value);
  };

  const pay = () => {
    if (cents === null) return setProblems(['Amount: type dollars and cents, e.g. 40 or 40.00.']);
    const input: CollectionCreate = {
      kind: 'payment',
      ...visit,
      amount_cents: cents,
      method,
      taken_by: who.trim(),
      ...(method === 'check' ? { check_number: reference.trim() } : {}),
      ...(method === 'card' ? { card_reference: reference.trim() } : {}),
      ...(over && confirmOver ? { confirm_over_estimate: true } : {}),
    };
    // The same rules the host applies, before anything leaves the screen.
    const local = collectionProblems({ ...input, kind: 'payment' }, { estimate: estimateMax === null ? null : { max_cents: estimateMax } });
    if (!who.trim()) local.push({ path: 'taken_by', code: 'required', message: 'Taken by: type your name or initials.' });
    if (local.length > 0) return setProblems(local.map((e) => e.message));
    void send(input);
  };

  const mark = (kind: 'declined' | 'waived') => {
    if (!who.trim()) return setProblems(['Taken by: type your name or initials.']);
    if (looksLikeCardNumber(reason)) return setProblems(['The reason looks like a card number: never write a card number down.']);
    void send({ kind, ...visit, taken_by: who.trim(), ...(reason.trim() ? { reason: reason.trim() } : {}) });
  };

  const referenceLabel = method === 'check' ? 'Check number' : "Terminal's reference (not the card number)";
  return (
    <form
      className="stack record-payment"
      data-testid="record-payment"
      aria-label="Record payment"
      onSubmit={(event) => {
        event.preventDefault();
        pay();
      }}
    >
      <div className="record-payment__grid">
        <label className="field">
          <span className="field__label">Amount ($)</span>
          <input className="input" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="payment-amount" autoFocus />
        </label>
        <fieldset className="field record-payment__methods">
          <legend className="field__label">Method</legend>
          {METHODS.map((m) => (
            <label key={m.value} className="record-payment__method">
              <input type="radio" name="payment-method" value={m.value} checked={method === m.value} onChange={() => setMethod(m.value)} data-testid={`payment-method-${m.value}`} /> {m.label}
            </label>
          ))}
        </fieldset>
        {method !== 'cash' && (
          <label className="field">
            <span className="field__label">{referenceLabel}</span>
            <input className="input" value={reference} onChange={(e) => setReference(e.target.value)} data-testid="payment-reference" autoComplete="off" />
          </label>
        )}
        <label className="field">
          <span className="field__label">Taken by</span>
          <input className="input" value={who} onChange={(e) => setTakenBy(e.target.value)} data-testid="payment-taken-by" placeholder="Name or initials" />
        </label>
      </div>
      {over && (
        <label className="notice notice--warn record-payment__over" data-testid="payment-over-estimate">
          <input type="checkbox" checked={confirmOver} onChange={(e) => setConfirmOver(e.target.checked)} /> {formatCents(cents)} is more than the estimate ({formatCents(estimateMax)}). Record it anyway.
        </label>
      )}
      {problems.length > 0 && (
        <Notice tone="bad" live>
          <ul className="record-payment__problems" data-testid="payment-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </Notice>
      )}
      <div className="row">
        <Button type="submit" variant="primary" disabled={busy} data-testid="payment-save">
          Record payment
        </Button>
        <input className="input record-payment__reason" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Reason (for declined or waived)" aria-label="Reason" data-testid="payment-reason" />
        <Button onClick={() => mark('declined')} disabled={busy} data-testid="payment-declined">
          Patient declined
        </Button>
        <Button onClick={() => mark('waived')} disabled={busy} data-testid="payment-waived">
          Waived
        </Button>
        {onCancel && (
          <Button onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
