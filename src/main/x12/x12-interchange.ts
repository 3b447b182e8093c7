import { X12Parser, type X12Segment } from 'node-x12';

/**
 * Reads an X12 interchange with node-x12 and refuses, with a reason a person can act on,
 * what is not a usable one. Delimiters come from the ISA segment's own positions (its
 * fields are fixed-width, so the element separator is the fourth character and the
 * segment terminator follows ISA16); a de-identified ISA one character short still reads.
 */

export class X12FileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'X12FileError';
  }
}

export interface X12Delimiters {
  element: string;
  segment: string;
  component: string;
  /** 5010 and later only (ISA11); 4010 sends one code per element. */
  repetition: string | null;
}

export interface X12TransactionSet {
  /** ST01: 271 here, or whatever else the file was. */
  code: string;
  /** ST03 when sent, else GS08: 005010X279A1, 004010X092A1. */
  version: string;
  /** Between ST and SE, in order. */
  segments: { tag: string; elements: string[] }[];
}

export interface X12Interchange {
  delimiters: X12Delimiters;
  transactions: X12TransactionSet[];
}

/**
 * The most elements each segment of a 270/271 carries in the X12 standard (4010 or 5010,
 * whichever allows more). A segment over its count is a file cut and pasted wrongly, or
 * not a 271: it is refused rather than read with its elements shifted.
 */
const MAX_ELEMENTS: Record<string, number> = {
  ISA: 16, IEA: 2, GS: 8, GE: 2, ST: 3, SE: 2, BHT: 6, HL: 4, TRN: 4, NM1: 12, REF: 4, N3: 2, N4: 7, PER: 9, PRV: 6,
  DMG: 11, INS: 17, HI: 12, DTP: 3, MPI: 7, EB: 14, HSD: 8, MSG: 3, III: 9, LS: 1, LE: 1, AAA: 4,
};

function delimitersOf(file: string, text: string): X12Delimiters {
  const element = text.charAt(3);
  if (!element || /[A-Za-z0-9\s]/.test(element)) throw new X12FileError(file, 'is not X12: the ISA segment has no element separator');
  let at = 0;
  for (let n = 0; n < 16; n++) {
    at = text.indexOf(element, at + 1);
    if (at < 0 || at > 200) throw new X12FileError(file, 'is truncated or not X12: the ISA segment does not have its 16 elements');
  }
  const component = text.charAt(at + 1);
  const segment = text.charAt(at + 2);
  if (!component || !segment) throw new X12FileError(file, 'is truncated: it ends inside the ISA segment');
  const isa11 = text.slice(0, at).split(element)[11] ?? '';
  const version = text.slice(0, at).split(element)[12] ?? '';
  const repetition = version >= '00402' && isa11.length === 1 && !/[A-Za-z0-9\s]/.test(isa11) ? isa11 : null;
  return { element, segment, component, repetition };
}

/** Parses one file's text; throws `X12FileError` naming `file` and what is wrong. */
export function readInterchange(file: string, raw: string): X12Interchange {
  let text = raw.replace(/^\uFEFF/, '').replace(/^\s+/, '');
  if (!text.startsWith('ISA')) throw new X12FileError(file, 'is not X12: it does not begin with an ISA segment');
  const delimiters = delimitersOf(file, text);
  // A newline-terminated file often lacks the last newline; any other terminator must end the file.
  if (/^[\r\n]$/.test(delimiters.segment) && !text.endsWith(delimiters.segment)) text += delimiters.segment;
  const tail = text.slice(text.lastIndexOf(delimiters.segment) + 1).trim();
  if (tail) {
    const tag = tail.split(delimiters.element)[0].slice(0, 3);
    throw new X12FileError(file, `is truncated: it ends inside a segment (${tag}) with no segment terminator`);
  }
  let parsed;
  try {
    parsed = new X12Parser(false).parse(text, {
      elementDelimiter: delimiters.element,
      segmentTerminator: delimiters.segment,
      subElementDelimiter: delimiters.component,
      repetitionDelimiter: delimiters.repetition ?? undefined,
    });
  } catch (error) {
    throw new X12FileError(file, `is not readable X12 (${error instanceof Error ? error.message : 'parse failed'})`);
  }
  const interchanges = 'interchanges' in parsed ? parsed.interchanges : [parsed];
  const groupVersion = (header: X12Segment | undefined) => header?.valueOf(8)?.trim() ?? '';
  const transactions: X12TransactionSet[] = [];
  for (const interchange of interchanges) {
    for (const group of interchange.functionalGroups ?? []) {
      for (const transaction of group.transactions ?? []) {
        const header = transaction.header;
        const code = header?.valueOf(1)?.trim() ?? '';
        const segments = (transaction.segments ?? []).map((segment) => ({
          tag: segment.tag.trim(),
          elements: segment.elements.map((e) => e.value.trim()),
        }));
        transactions.push({ code, version: header?.valueOf(3)?.trim() || groupVersion(group.header), segments });
      }
    }
  }
  if (transactions.length === 0) throw new X12FileError(file, 'is truncated or not a transaction: it has no ST segment inside a GS group');
  for (const transaction of transactions) {
    if (transaction.code === '270') throw new X12FileError(file, 'is a 270 (an eligibility request), not a 271 response');
    if (transaction.code !== '271') throw new X12FileError(file, `is a ${transaction.code || 'unnamed'} transaction, not a 271 eligibility response`);
    if (transaction.segments.length === 0) throw new X12FileError(file, 'is truncated: its 271 has no segments after ST');
    for (const segment of transaction.segments) {
      const max = MAX_ELEMENTS[segment.tag];
      if (max === undefined) throw new X12FileError(file, `has a ${segment.tag.slice(0, 3) || 'nameless'} segment, which a 271 does not have`);
      if (segment.elements.length > max) throw new X12FileError(file, `has a ${segment.tag} segment with ${segment.elements.length} elements; X12 allows at most ${max}`);
    }
  }
  return { delimiters, transactions };
}
