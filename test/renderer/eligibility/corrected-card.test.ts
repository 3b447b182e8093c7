import { describe, expect, it } from 'vitest';
import type { InsuranceCard } from '@src/shared/contract';
import { correctedCard } from '@src/renderer/src/eligibility/corrected-card';

const FRONT = `${'a'.repeat(64)}.jpg`;
const BACK = `${'b'.repeat(64)}.png`;

function card(id: string, created_at: string, photos: { front?: string; back?: string }, fields: Partial<InsuranceCard> = {}): InsuranceCard {
  return {
    id,
    patient_id: 'pat_1',
    created_at,
    insurance_carrier_ids: ['che_aetna'],
    ...(photos.front ? { front_photo_download_url: `https://files.example/photos/${photos.front}` } : {}),
    ...(photos.back ? { back_photo_download_url: `https://files.example/photos/${photos.back}` } : {}),
    ...fields,
  } as InsuranceCard;
}

describe('a corrected card', () => {
  it('is a new card with the same photos, the corrected fields and payer, blanks left out', () => {
    const saved = card('ic_1', '2026-11-23T10:00:00.000Z', { front: FRONT, back: BACK }, { member_id: 'W93362321I', group_number: '0862434', rx_bin: '610591' });
    expect(correctedCard(saved, 'pat_1', { member_id: ' W933623211 ', group_number: '', payer_id: 'che_cigna' })).toEqual({
      patient_id: 'pat_1',
      member_id: 'W933623211',
      rx_bin: '610591',
      insurance_carrier_ids: ['che_cigna'],
      front_photo_object_key: FRONT,
      back_photo_object_key: BACK,
    });
    expect(correctedCard(saved, 'pat_1', { payer_id: '' }).insurance_carrier_ids).toBeUndefined();
  });
});
