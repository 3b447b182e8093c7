/**
 * An extracted value read less surely than this is marked for a person to check ("Check
 * this against the card"). The on-device reader's confidences are calibrated against it:
 * a value it may have wrong comes out below it, or blank.
 */
export const REVIEW_BELOW = 0.8;
