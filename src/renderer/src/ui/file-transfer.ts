/** Bytes as base64 for the bridge, in chunks: spreading a whole file into one call overflows the stack. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Offers text as a file download (an export), in the browser and in Electron alike. */
export function saveTextFile(text: string, filename: string, type = 'text/csv'): void {
  saveBlob(new Blob([text], { type }), filename);
}

/** Offers bytes the bridge sent as base64 (an encrypted export) as a file download. */
export function saveBase64File(data: string, filename: string, type = 'application/octet-stream'): void {
  saveBlob(new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type }), filename);
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
