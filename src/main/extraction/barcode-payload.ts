import { parseAamva } from '../../shared/barcodes/aamva';
import { classifyPayload } from '../../shared/barcodes/classify-payload';
import { parsePayerBarcode } from '../../shared/barcodes/payer-barcode';
import type { BarcodeReading } from '../../shared/contract';
import { readDigitalCard, type DigitalCardDeps, type DigitalCardResult } from '../digital-card/read-digital-card';

export interface BarcodePayloadDeps {
  /** The desk's digital-card reader (its trusted issuers); without a desk (the CLI) digital cards are not read. */
  digitalCard?: DigitalCardDeps;
}

/** Past this a payload is kept cut: no card layout is that long, and the record stays small. */
const RAW_KEPT = 4096;

/**
 * What one decoded barcode means, from a photo, a scanner's typing or the local API alike:
 * classified once (`classifyPayload`), then read by the reader of its kind. A payload that
 * fails its reader is `invalid` with the reason and none of it is used.
 */
export async function readBarcodePayload(deps: BarcodePayloadDeps, format: string, text: string): Promise<BarcodeReading> {
  switch (classifyPayload(text)) {
    case 'shc':
    case 'shlink': {
      if (!deps.digitalCard) return { format, kind: 'digital_card', status: 'failed', reason: 'A digital card is read at the desk, which keeps the trusted issuers it is verified against.', fields: {} };
      const card = await readDigitalCard(deps.digitalCard, text.trim());
      return digitalCardReading(format, card);
    }
    case 'aamva': {
      const licence = parseAamva(text);
      if (!licence.ok) return { format, kind: 'licence', status: 'invalid', reason: licence.problems.map((p) => p.message).join(' ') };
      return { format, kind: 'licence', status: 'read', licence: licence.details };
    }
    case 'payer': {
      const card = parsePayerBarcode(text);
      if (!card.ok) return { format, kind: 'payer', status: 'invalid', reason: card.reason };
      return { format, kind: 'payer', status: 'read', fields: card.card.fields, issuer_id: card.card.issuer_id, ...(card.card.date_of_birth ? { date_of_birth: card.card.date_of_birth } : {}) };
    }
    default:
      return { format, kind: 'unknown', status: 'read', reason: 'The barcode is of no layout Coverdesk knows: kept as it is, nothing filled from it.', raw: text.slice(0, RAW_KEPT) };
  }
}

/** A digital card's read as the desk sees it: the same shape from a scan now and from a link completed later. */
export function digitalCardReading(format: string, card: DigitalCardResult): BarcodeReading {
  const waitingId = typeof card.extra?.waiting_id === 'string' ? card.extra.waiting_id : undefined;
  return { format, kind: 'digital_card', status: card.status, ...(card.reason ? { reason: card.reason } : {}), fields: card.fields, ...(waitingId ? { waiting_id: waitingId } : {}) };
}
