import { describe, expect, it } from 'vitest';
import { unpacked } from '@src/main/extraction/ocr-worker';

describe('paths of the unpacked OCR packages in the packaged app', () => {
  it('point into app.asar.unpacked, on macOS and Windows alike, and leave other paths alone', () => {
    expect(unpacked('/Applications/Coverdesk.app/Contents/Resources/app.asar/node_modules/tesseract.js/src/x.js')).toBe(
      '/Applications/Coverdesk.app/Contents/Resources/app.asar.unpacked/node_modules/tesseract.js/src/x.js',
    );
    expect(unpacked('C:\\Program Files\\Coverdesk\\resources\\app.asar\\node_modules\\@tesseract.js-data\\eng')).toBe(
      'C:\\Program Files\\Coverdesk\\resources\\app.asar.unpacked\\node_modules\\@tesseract.js-data\\eng',
    );
    expect(unpacked('/work/main/node_modules/tesseract.js/src/x.js')).toBe('/work/main/node_modules/tesseract.js/src/x.js');
  });
});
