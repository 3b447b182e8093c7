import { describe, expect, it } from 'vitest';
import { newRecoveryCode, parseRecoveryCode, RecoveryCodeError, unwrapKeyWithCode, wrapKeyWithCode } from '@src/main/security/recovery-code';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const KEY = Buffer.alloc(32, 7);
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RecoveryCodeError);
    return (error as RecoveryCodeError).reason;
  }
  throw new Error('not refused');
}

describe('The recovery code', () => {
  it('is six groups of four from Crockford base32, different each time, and parses back to itself', () => {
    const codes = new Set(Array.from({ length: 50 }, () => newRecoveryCode()));
    expect(codes.size).toBe(50);
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/);
      expect(parseRecoveryCode(code)).toBe(code);
    }
  });

  it('is read as typed: lower case, spaces instead of dashes, O for 0 and l/I for 1', () => {
    const code = newRecoveryCode(() => Buffer.from(Array.from({ length: 22 }, (_, i) => (i % 2 === 0 ? 0 : 1))));
    expect(code.startsWith('0101-0101')).toBe(true);
    const typed = code.toLowerCase().replace(/-/g, ' ').replace(/^0101/, 'oIol');
    expect(parseRecoveryCode(typed)).toBe(code);
  });

  it('catches a mistyped symbol with its check letters (all but about 1 in 1,024), naming the field', () => {
    const code = newRecoveryCode();
    const symbols = code.replace(/-/g, '');
    let caught = 0;
    let tried = 0;
    for (let i = 0; i < symbols.length; i++) {
      for (const other of ALPHABET) {
        if (other === symbols[i]) continue;
        tried++;
        const typo = symbols.slice(0, i) + other + symbols.slice(i + 1);
        try {
          parseRecoveryCode(typo);
        } catch (error) {
          expect((error as RecoveryCodeError).reason).toBe('mistyped');
          expect((error as RecoveryCodeError).errors?.[0]?.path).toBe('code');
          caught++;
        }
      }
    }
    // A 10-bit check lets through about one random typo in 1,024.
    expect(caught / tried).toBeGreaterThan(0.99);
    expect(refusal(() => parseRecoveryCode(code.slice(0, -1)))).toBe('mistyped');
    expect(refusal(() => parseRecoveryCode(`${code}-U`))).toBe('mistyped');
  });

  it('wraps the database key with scrypt and unwraps it with the same code; another code is "wrong", a typo "mistyped"', () => {
    const code = newRecoveryCode();
    const file = wrapKeyWithCode(KEY, code, '2026-11-26T10:00:00.000Z', FAST);
    expect(file.kdf).toMatchObject({ name: 'scrypt', N: FAST.N, r: 8, p: 1 });
    // Hash-free: nothing derived from the code but the wrap itself.
    expect(JSON.stringify(file)).not.toContain(code.replace(/-/g, ''));
    expect(unwrapKeyWithCode(file, code.toLowerCase()).equals(KEY)).toBe(true);
    expect(refusal(() => unwrapKeyWithCode(file, newRecoveryCode()))).toBe('wrong');
    const last = code.at(-1) === '0' ? '1' : '0';
    expect(refusal(() => unwrapKeyWithCode(file, code.slice(0, -1) + last))).toBe('mistyped');
  });

  it('keeps its parameters with the wrap: the product cost is memory-hard (64 MiB)', () => {
    const code = newRecoveryCode();
    const file = wrapKeyWithCode(KEY, code, '2026-11-26T10:00:00.000Z');
    expect(128 * file.kdf.N * file.kdf.r).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    expect(unwrapKeyWithCode(file, code).equals(KEY)).toBe(true);
  });
});
