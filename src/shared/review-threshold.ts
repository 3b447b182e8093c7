/**
 * An extracted value read less surely than this is marked for a person to check ("Check
 * this against the card"). The on-device reader's confidences are calibrated against it:
 * a value it may have wrong comes out below it, or blank.
 */
export const REVIEW_BELOW = 0.8;

/**
 * The most the on-device reader gives a value without the evidence that makes one sure
 * (a standard caption and shape, a payer's distinctive name, website or id): just under
 * `REVIEW_BELOW`, so it is always marked, and above the reader's own re-read threshold.
 */
export const UNSURE_AT_MOST = 0.79;
