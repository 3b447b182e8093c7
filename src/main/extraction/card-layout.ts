import type { OcrBox, OcrPage, OcrWord } from './ocr-worker';

/**
 * A run of words printed together: a label, a value, or both ("Group # 123456"). Card
 * columns are far apart, so a wide gap ends a segment even where tesseract read one line
 * straight across two columns ("MEMBER NAME        RX BIN").
 */
export interface Segment {
  words: OcrWord[];
  text: string;
  bbox: OcrBox;
  /** Median word height: the segment's text size. */
  height: number;
  /** Which photo (0 = front) it was read from. */
  page: number;
}

/**
 * A gap wider than this many text heights, and this many character widths, separates two
 * segments on one line. Both, because a word's height varies with its letters ("ID" has
 * no ascender-to-descender span) while its character width varies with the font.
 */
const COLUMN_GAP = 1.6;
const COLUMN_GAP_CHARS = 2.5;

export function boxOf(words: OcrWord[]): OcrBox {
  return {
    x0: Math.min(...words.map((w) => w.bbox.x0)),
    y0: Math.min(...words.map((w) => w.bbox.y0)),
    x1: Math.max(...words.map((w) => w.bbox.x1)),
    y1: Math.max(...words.map((w) => w.bbox.y1)),
  };
}

function charWidth(words: OcrWord[]): number {
  const chars = words.reduce((n, w) => n + w.text.length, 0);
  const width = words.reduce((n, w) => n + w.bbox.x1 - w.bbox.x0, 0);
  return chars === 0 ? 0 : width / chars;
}

/** Whether the gap between two runs of words on one line separates two segments. */
function isColumnGap(left: OcrWord[], right: OcrWord[]): boolean {
  const gap = right[0].bbox.x0 - left[left.length - 1].bbox.x1;
  const both = [...left, ...right];
  return gap > COLUMN_GAP * medianHeight(both) && gap > COLUMN_GAP_CHARS * charWidth(both);
}

function medianHeight(words: OcrWord[]): number {
  const heights = words.map((w) => w.bbox.y1 - w.bbox.y0).sort((a, b) => a - b);
  return Math.max(1, heights[heights.length >> 1]);
}

/** Pieces this close are one word the reader split across two lines ("Ope" + "n"). */
const SPLIT_WORD_GAP = 0.15;

function segmentOf(words: OcrWord[], page: number): Segment {
  return { words, text: words.map((w) => w.text).join(' '), bbox: boxOf(words), height: medianHeight(words), page };
}

function joinPieces(left: Segment, right: Segment, page: number): Segment {
  const last = left.words[left.words.length - 1];
  const first = right.words[0];
  if (first.bbox.x0 - last.bbox.x1 < SPLIT_WORD_GAP * Math.max(left.height, right.height)) {
    const word: OcrWord = { text: last.text + first.text, confidence: Math.min(last.confidence, first.confidence), bbox: boxOf([last, first]) };
    return segmentOf([...left.words.slice(0, -1), word, ...right.words.slice(1)], page);
  }
  return segmentOf([...left.words, ...right.words], page);
}

/** How much two boxes share vertically, as a fraction of the smaller one. */
export function verticalOverlap(a: OcrBox, b: OcrBox): number {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return overlap / Math.max(1, Math.min(a.y1 - a.y0, b.y1 - b.y0));
}

/** Segments of one page, top to bottom, left to right. */
export function segmentPage(page: OcrPage, index = 0): Segment[] {
  const pieces: Segment[] = [];
  for (const line of page.lines) {
    // Strokes read as punctuation-only words (card edges, logos) are noise, not text.
    const words = line.words.filter((w) => /[\p{L}\p{N}#]/u.test(w.text));
    if (words.length === 0) continue;
    const sorted = [...words].sort((a, b) => a.bbox.x0 - b.bbox.x0);
    let current: OcrWord[] = [sorted[0]];
    for (const word of sorted.slice(1)) {
      if (isColumnGap(current, [word])) {
        pieces.push(segmentOf(current, index));
        current = [];
      }
      current.push(word);
    }
    pieces.push(segmentOf(current, index));
  }
  // Join pieces of one printed line that tesseract reported as separate lines.
  pieces.sort((a, b) => a.bbox.x0 - b.bbox.x0);
  const joined: Segment[] = [];
  for (const piece of pieces) {
    const left = joined.find(
      (s) =>
        verticalOverlap(s.bbox, piece.bbox) >= 0.6 &&
        piece.bbox.x0 >= s.bbox.x1 - 2 &&
        !isColumnGap(s.words, piece.words),
    );
    if (left) joined[joined.indexOf(left)] = joinPieces(left, piece, index);
    else joined.push(piece);
  }
  return joined.sort((a, b) => a.bbox.y0 - b.bbox.y0 || a.bbox.x0 - b.bbox.x0);
}

/** The page as plain text in reading order: segments on one row joined by wide spaces. */
export function pageText(segments: Segment[]): string {
  const rows: Segment[][] = [];
  for (const segment of [...segments].sort((a, b) => a.bbox.y0 - b.bbox.y0)) {
    const row = rows.find((r) => verticalOverlap(r[0].bbox, segment.bbox) >= 0.5);
    if (row) row.push(segment);
    else rows.push([segment]);
  }
  return rows.map((row) => row.sort((a, b) => a.bbox.x0 - b.bbox.x0).map((s) => s.text).join('    ')).join('\n');
}
