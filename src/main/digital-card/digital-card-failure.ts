/**
 * Why a digital card could not be read or trusted, in the desk's words. Thrown inside the
 * digital-card folder and turned into a result's `reason` by `readDigitalCard`; the message
 * never carries what the card holds (names, dates of birth, member ids), only what is wrong.
 */
export class DigitalCardFailure extends Error {
  constructor(
    message: string,
    /** `not_verified`: the content was read but cannot be trusted; `failed`: nothing usable. */
    readonly status: 'failed' | 'not_verified' = 'failed',
  ) {
    super(message);
    this.name = 'DigitalCardFailure';
  }
}
