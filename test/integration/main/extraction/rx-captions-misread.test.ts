import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionEngine } from '@src/main/extraction/extraction-engine';
import { directoryEntities } from '@src/shared/payers/payer-directory';
import { REVIEW_BELOW } from '@src/shared/review-threshold';

/**
 * A card whose pharmacy block prints its NCPDP captions as small print is misread: "RBIN" and
 * "RPCN" with the x lost, "HxGRP" with the R read as an H, a speck between a caption and its
 * value. The codes are a PBM's published commercial ones in NCPDP's shapes (BIN 004336, six
 * digits; PCN ADV; an Rx group). Real tesseract, no mocks.
 */
const CODES = { rx_bin: '004336', rx_pcn: 'ADV', rx_group: 'RX4471' };

function misreadCard(): Buffer {
  const canvas = createCanvas(1012, 638);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 1012, 638);
  ctx.fillStyle = '#111111';
  ctx.font = 'bold 40px "DejaVu Sans"';
  ctx.fillText('Acme Health Plan', 40, 80);
  ctx.font = '28px "DejaVu Sans"';
  ctx.fillText('Member Name: JOHN A SMITH', 40, 170);
  ctx.fillText('Member ID: W123456789', 40, 225);
  ctx.fillText('Group No: 0862434', 40, 280);
  ctx.fillText('RBIN', 560, 400);
  ctx.fillText(CODES.rx_bin, 720, 400);
  ctx.fillText('RPCN', 560, 450);
  ctx.fillText(CODES.rx_pcn, 720, 450);
  ctx.fillText('HxGRP', 560, 500);
  ctx.fillText('.', 680, 500);
  ctx.fillText(CODES.rx_group, 720, 500);
  return canvas.toBuffer('image/png');
}

describe('NCPDP captions misread by OCR', () => {
  const engine = createExtractionEngine();
  afterAll(() => engine.close());

  it('reads the codes under them, each a repair under "check this"', async () => {
    const { fields } = await engine.extract([{ bytes: new Uint8Array(misreadCard()), content_type: 'image/png' }], { entities: directoryEntities() });
    for (const field of ['rx_bin', 'rx_pcn', 'rx_group'] as const) {
      expect(fields[field]?.value, field).toBe(CODES[field]);
      expect(fields[field]!.confidence, field).toBeLessThan(REVIEW_BELOW);
    }
    // The captions as read are never a blank code's value.
    expect(Object.values(fields).map((f) => f?.value)).not.toContain('HXGRP');
  }, 120_000);
});
