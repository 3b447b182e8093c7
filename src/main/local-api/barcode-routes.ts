import type { V1Routes } from '../http/v1-app';
import { readBarcodePayload, type BarcodePayloadDeps } from '../extraction/barcode-payload';
import { BarcodeReadingCreate, MAX_JSON_BYTES } from '../../shared/contract';
import { parseOrThrow } from '../../shared/service-error';
import { accepts, jsonBody, limit } from './appointment-routes';

/**
 * A barcode scanner software decoded itself (docs/local-api.md): the text goes through the
 * same reading as a photo's barcode and the answer says what it is. Nothing is stored (the
 * integrator creates the patient or card from it), so sending it again is safe.
 */
export function barcodeRoutes(deps: BarcodePayloadDeps): V1Routes {
  return (app) => {
    app.post('/v1/barcode_readings', accepts(['application/json'], 'Send the body as JSON with "Content-Type: application/json".'), limit(MAX_JSON_BYTES), async (c) => {
      const { barcode_text } = parseOrThrow(BarcodeReadingCreate, await jsonBody(c));
      return c.json(await readBarcodePayload(deps, 'text', barcode_text), 200);
    });
  };
}
