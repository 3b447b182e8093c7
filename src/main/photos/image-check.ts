import sharp from 'sharp';
import { ServiceError } from '../../shared/service-error';

/**
 * Decodes the whole image once: a truncated or corrupt photo is refused at the door with
 * a reason, instead of failing later in extraction or upstream.
 */
export async function assertDecodableImage(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  try {
    const { info } = await sharp(bytes, { failOn: 'truncated' }).raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height };
  } catch {
    throw new ServiceError('validation_failed', 'The photo could not be read: it is damaged or incomplete.', [
      { path: 'body', code: 'invalid_image', message: 'The body must be a complete, undamaged JPEG or PNG image.' },
    ]);
  }
}
