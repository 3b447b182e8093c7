import type { ExtractionEngine, ExtractionImage } from '../extraction/extraction-engine';
import { asExtractionFailure } from '../extraction/extraction-failure';
import { knownEntities } from '../extraction/card-photos';
import type { FieldError, V1Service } from '../../shared/contract';
import { validationFailed } from '../../shared/service-error';
import type { HandlersFor } from './handlers';
import type { DigitalCardDeps } from '../digital-card/read-digital-card';
import { readBarcodePayload } from '../extraction/barcode-payload';

/**
 * Intake pre-fill: reads photos already uploaded but not yet on a card. Nothing is
 * stored. An unknown object key is the caller's mistake (422 naming the field); a photo
 * the engine cannot read is an answer (`failure` with its reason), not an error.
 */
export function extractionHandlers({ service, engine, digitalCard }: { service: V1Service; engine: Pick<ExtractionEngine, 'extract'>; digitalCard?: DigitalCardDeps }): HandlersFor<'extractions.preview' | 'barcodes.read'> {
  return {
    // The same reading as a photo's barcode; nothing is stored (the desk decides what to use).
    'barcodes.read': (input) => readBarcodePayload({ digitalCard }, 'text', input.text),
    'extractions.preview': async (input) => {
      const images: ExtractionImage[] = [];
      const missing: FieldError[] = [];
      for (const path of ['front_photo_object_key', 'back_photo_object_key'] as const) {
        const key = input[path];
        if (!key) continue;
        try {
          const photo = await service.readPhoto(key);
          images.push({ bytes: photo.bytes, content_type: photo.content_type });
        } catch {
          missing.push({ path, code: 'not_found', message: 'No photo with that object key exists: upload it with photos.upload first.' });
        }
      }
      if (missing.length > 0) throw validationFailed(missing);
      try {
        const { fields, barcodes } = await engine.extract(images, { entities: await knownEntities(service) });
        return { status: 'success', engine: 'on_device', fields, ...(barcodes.length > 0 ? { barcodes } : {}) };
      } catch (error) {
        return { status: 'failure', engine: 'on_device', failure_reason: asExtractionFailure(error).reason };
      }
    },
  };
}
