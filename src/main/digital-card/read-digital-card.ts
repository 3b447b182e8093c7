import type { ExtractedFieldName } from '../../shared/contract';

/**
 * The seam between the card reader's barcodes and the digital cards (issue 27, items 2 and 3):
 * this STUB is replaced by the SMART Health Cards and Links reader. Until then every
 * `shc:/` and `shlink:/` payload is answered `failed` with a reason, never guessed at.
 */
export interface DigitalCardResult {
  kind: 'shc' | 'shlink';
  status: 'verified' | 'not_verified' | 'waiting' | 'failed';
  reason?: string;
  fields: Partial<Record<ExtractedFieldName, string>>;
  extra?: Record<string, unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the digital-card reader fills it (trusted issuers, fetch, clock)
export interface DigitalCardDeps {}

export async function readDigitalCard(_deps: DigitalCardDeps, payload: string): Promise<DigitalCardResult> {
  const kind = payload.trim().toLowerCase().startsWith('shc:/') ? 'shc' : 'shlink';
  return { kind, status: 'failed', reason: 'digital cards are not read yet', fields: {} };
}
