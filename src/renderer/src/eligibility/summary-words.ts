import { serviceTypeLabel } from '../../../shared/contract';
import { formatCents } from '../format';
import type { Accumulator, ByNetwork, FigureSource, Level, Network, OtherPayer } from '../../../shared/benefit-summary';
import { periodLabel } from './labels';

/**
 * The summary's words: one plain sentence under each tile, the network said once, and
 * what the payer did not send said as such. Kept apart from the view so every wording can
 * be read (and tested) without rendering.
 */

/** What the desk reads where the payer sent nothing: never a guess, never a figure of another kind. */
export const NOT_STATED = 'Not stated by the payer';

const NETWORK_WORDS: Record<Network, string> = { in_network: 'in network', out_of_network: 'out of network' };

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Medicare Part A, for hospital": what a figure is about, when it is not plainly the visit asked. */
function aboutWords(source: FigureSource): string | null {
  const notes = [source.insurance, source.for && `for ${serviceTypeLabel(source.for).toLowerCase()}`].filter((n): n is string => !!n);
  return notes.length ? notes.join(', ') : null;
}

/** The headline figure of a tile: the in-network one, else the out-of-network one. */
function headline<T>(figures: ByNetwork<T>): { figure: T; network: Network; other: T | null } | null {
  if (figures.in_network) return { figure: figures.in_network, network: 'in_network', other: figures.out_of_network };
  if (figures.out_of_network) return { figure: figures.out_of_network, network: 'out_of_network', other: null };
  return null;
}

export interface TileWords {
  value: string;
  sentence: string;
}

/**
 * A copay or coinsurance tile. `noun` names the figure in the sentence ("copay"); `maximumMet`
 * is whether nothing is left of the out-of-pocket maximum per network: then what the visit
 * would cost is not what the patient pays, and the sentence says so first.
 */
export function costTile<T extends FigureSource>(figures: ByNetwork<T>, text: (figure: T) => string, noun: string, maximumMet: Record<Network, boolean>): TileWords | null {
  const shown = headline(figures);
  if (!shown) return null;
  const about = aboutWords(shown.figure);
  const where = shown.figure.network_stated ? NETWORK_WORDS[shown.network] : 'either network (the payer did not say which)';
  const scope = capitalised(about ? `${where}, ${about}` : where);
  if (shown.figure.network_stated && maximumMet[shown.network]) {
    return { value: text(shown.figure), sentence: `${scope}, but the out-of-pocket maximum is met: the patient normally owes nothing more ${NETWORK_WORDS[shown.network]}.` };
  }
  let rest: string;
  if (!shown.figure.network_stated) {
    rest = '';
  } else if (shown.network === 'in_network') {
    rest = shown.other ? `out of network ${text(shown.other)}` : `the payer did not state the out-of-network ${noun}`;
  } else {
    rest = `the payer did not state the in-network ${noun}`;
  }
  return { value: text(shown.figure), sentence: rest ? `${scope}; ${rest}.` : `${scope}.` };
}

/** "$1,500.00 met of $1,500.00 per calendar year": the figures of one limit, as the payer sent them. */
function figuresWords(acc: Accumulator): string {
  const worked = (which: Accumulator['computed']) => (acc.computed === which ? ' (worked out)' : '');
  const period = acc.total_period ? ` ${periodLabel(acc.total_period).toLowerCase()}` : '';
  if (acc.met !== null && acc.total !== null) return `${formatCents(acc.met)} met${worked('met')} of ${formatCents(acc.total)}${period}`;
  if (acc.total !== null) return `a limit of ${formatCents(acc.total)}${period}, the amount met not stated`;
  if (acc.met !== null) return `${formatCents(acc.met)} met, the limit not stated`;
  return 'the limit and the amount met not stated';
}

/** A deductible or out-of-pocket tile: what is left, then one sentence with whose and which network. */
export function accumulatorTile(figures: Record<Level, ByNetwork<Accumulator>>): TileWords | null {
  const shown = headline(figures.individual);
  if (!shown) return null;
  const acc = shown.figure;
  const about = aboutWords(acc);
  const where = acc.network_stated ? NETWORK_WORDS[shown.network] : 'either network (the payer did not say which)';
  return {
    // A limit is never shown as what is left: without a remainder the headline says so.
    value: acc.remaining !== null ? `${formatCents(acc.remaining)} left${acc.computed === 'remaining' ? ' (worked out)' : ''}` : 'Remaining not stated',
    sentence: `Individual, ${where}${about ? `, ${about}` : ''}: ${figuresWords(acc)}.`,
  };
}

/** One cell of the deductible and out-of-pocket table (the column says whose and which network). */
export function accumulatorCell(acc: Accumulator | null): string {
  if (!acc) return NOT_STATED;
  const left = acc.remaining !== null ? `${formatCents(acc.remaining)} left${acc.computed === 'remaining' ? ' (worked out)' : ''}` : 'Remaining not stated';
  const about = aboutWords(acc);
  const notes = [about, !acc.network_stated && 'the payer did not say which network'].filter(Boolean).join('; ');
  return `${left}: ${figuresWords(acc)}${notes ? ` (${notes})` : ''}.`;
}

const ROLE_WORDS: Record<OtherPayer['role'], string> = {
  primary: 'is the primary payer',
  secondary: 'is the secondary payer',
  tertiary: 'is the tertiary payer',
  other: 'may be primary',
};

/** "Medicare Part A may be primary: check coordination of benefits." */
export function otherPayerSentence(payer: OtherPayer): string {
  const name = payer.name ?? 'Another payer';
  const covers = payer.for ? ` (for ${serviceTypeLabel(payer.for).toLowerCase()})` : '';
  return `${name}${covers} ${ROLE_WORDS[payer.role]}: check coordination of benefits.`;
}
