/**
 * Why an extraction failed, as stored in `failure_reason`: a code the desk turns into a
 * plain sentence. Snake case, like the other failure reasons of the contract.
 */
export type ExtractionFailureReason =
  /** The card has no photos to read. */
  | 'no_photos'
  /** A photo is damaged, incomplete or not an image. */
  | 'unreadable_image'
  /** A photo is an empty file. */
  | 'empty_file'
  /** A photo is a document (a PDF) or an image format that is not a photo. */
  | 'unsupported_format'
  /** A photo has more pixels than are decoded safely. */
  | 'image_too_large'
  /** The photo was read but shows no insurance card (no card labels, ids or payer). */
  | 'not_a_card'
  /** Retake: the photo is too blurred to read the card reliably. */
  | 'retake_blurry'
  /** Retake: a reflection hides the card's fields (the member id). */
  | 'retake_glare'
  /** The photos were read but nothing on them looks like a card field. */
  | 'no_fields_found'
  /** The OCR engine itself failed (it could not start, crashed or timed out). */
  | 'engine_failed';

/**
 * A failed extraction: `reason` is the code recorded on the extraction (and read by the
 * hot folder), `message` a sentence without PHI for logs and people.
 */
export class ExtractionFailure extends Error {
  constructor(
    readonly reason: ExtractionFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionFailure';
  }
}

/** Any error as an ExtractionFailure; what is not ours already is the engine's fault. */
export function asExtractionFailure(error: unknown): ExtractionFailure {
  if (error instanceof ExtractionFailure) return error;
  return new ExtractionFailure('engine_failed', 'The on-device reader failed on this card.');
}
