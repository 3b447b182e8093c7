/**
 * National Provider Identifier check digit: Luhn over the prefix 80840 and the first nine
 * digits (CMS, "NPI check digit"). Used to seed valid NPIs and to validate provider data.
 */
export function npiCheckDigit(firstNine: string): number {
  const digits = `80840${firstNine}`.split('').map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = true; i >= 0; i--, double = !double) {
    let d = digits[i];
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidNpi(npi: string): boolean {
  return /^\d{10}$/.test(npi) && npiCheckDigit(npi.slice(0, 9)) === Number(npi[9]);
}
