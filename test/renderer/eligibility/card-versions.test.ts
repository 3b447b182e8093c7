import { describe, expect, it } from 'vitest';
import type { InsuranceCard } from '@src/shared/contract';
import { cardVersions } from '@src/renderer/src/eligibility/card-versions';
import { correctedCard } from '@src/renderer/src/eligibility/corrected-card';

const FRONT = `${'a'.repeat(64)}.jpg`;
const BACK = `${'b'.repeat(64)}.png`;
const OTHER = `${'c'.repeat(64)}.jpg`;

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

describe('versions of a card', () => {
  it('makes the newest card with the same photos the current one and keeps the others as earlier', () => {
    const first = card('ic_1', '2026-11-23T10:00:00.000Z', { front: FRONT, back: BACK });
    const second = card('ic_2', '2026-11-23T11:00:00.000Z', { front: FRONT, back: BACK });
    const third = card('ic_3', '2026-11-23T12:00:00.000Z', { front: FRONT, back: BACK });
    const other = card('ic_4', '2026-11-23T09:00:00.000Z', { front: OTHER });
    const { current, earlier } = cardVersions([second, other, first, third]);
    expect([...earlier].sort()).toEqual(['ic_1', 'ic_2']);
    expect(current.get('ic_1')).toBe('ic_3');
    expect(current.get('ic_2')).toBe('ic_3');
    expect(current.get('ic_3')).toBe('ic_3');
    expect(current.get('ic_4')).toBe('ic_4');
  });

  it('finds no versions among cards without photos, or with only the front in common', () => {
    const { earlier } = cardVersions([card('ic_1', '2026-11-23T10:00:00.000Z', {}), card('ic_2', '2026-11-23T11:00:00.000Z', {}), card('ic_3', '2026-11-23T12:00:00.000Z', { front: FRONT }), card('ic_5', '2026-11-23T13:00:00.000Z', { front: FRONT, back: BACK })]);
    expect([...earlier]).toEqual([]);
  });
});

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
