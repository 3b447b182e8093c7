/**
 * Why the card could not be read, in the desk's words, from the reason code the reader
 * records (`failure_reason` of a preview, an extraction or an inbox scan). Each says what
 * to do next: retake the photo, or type the fields in.
 */
const SENTENCES: Record<string, string> = {
  retake_blurry: 'Retake: the photo is too blurry to read. Hold the card flat and the camera still, in good light — or type the fields in from the card.',
  retake_glare: 'Retake: glare over the member id. Tilt the card or move away from the light — or type the fields in from the card.',
  not_a_card: 'This photo does not look like an insurance card. Photograph the front of the card, or type the fields in from it.',
  no_fields_found: 'No card fields could be read from this photo. Retake it flat, sharp and filling the frame, or type the fields in from the card.',
  image_too_large: 'This photo is too large to read: retake it at a lower resolution, or type the fields in from the card.',
  unsupported_format: 'This file is not a photo the reader can use (a PDF or another format): use a JPEG or PNG, or type the fields in from the card.',
  empty_file: 'This photo is an empty file: take or choose it again.',
  unreadable_image: 'This photo is damaged or incomplete: take or choose it again, or type the fields in from the card.',
  no_photos: 'There is no photo to read: take or choose the front of the card.',
  engine_failed: 'Reading cards failed on this computer: type the fields in from the card.',
  no_engine: 'Reading cards is not available on this computer: type the fields in from the card.',
};

const UNKNOWN = 'The card could not be read: type the fields in from the card.';

export function readingFailureSentence(reason: string | undefined): string {
  return (reason && Object.hasOwn(SENTENCES, reason) ? SENTENCES[reason] : undefined) ?? UNKNOWN;
}
