/**
 * A CSV cell: quoted, and a leading = + - @ (or tab, CR) defused with an apostrophe so a
 * spreadsheet never runs it as a formula. A plain number ("-19.99") is a number, not a formula,
 * and stays one.
 */
export function csvCell(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}
