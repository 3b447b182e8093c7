import {
  AAA_REASONS,
  BENEFIT_CODES,
  COVERAGE_LEVELS,
  FOLLOW_UP_ACTIONS,
  TIME_PERIODS,
  serviceTypeFromX12,
  type AaaCode,
  type Benefit,
  type BenefitCode,
  type ClearinghouseEntityError,
  type CoverageLevel,
  type EntityErrorLevel,
  type InNetwork,
  type ServiceType,
  type TimePeriod,
} from '../../shared/contract';
import { readInterchange, X12FileError, type X12Delimiters } from './x12-interchange';

/**
 * A 271 as the people it answers about. Each subscriber or dependent loop (2000C/2000D)
 * that carries an answer of its own (an EB or AAA), or ends the HL tree, is a covered
 * person: every EB segment is one benefit, every AAA one entity error at its level,
 * including those of the payer and provider loops above the person.
 */

export interface X12Person {
  file: string;
  level: 'subscriber' | 'dependent';
  /** NM109 of the person, else of their subscriber (dependents often have no id of their own). */
  member_id?: string;
  first_name?: string;
  last_name?: string;
  /** DMG02 when it is a real D8 date. */
  date_of_birth?: string;
  payer: { name?: string; id?: string };
  benefits: Benefit[];
  errors: ClearinghouseEntityError[];
}

export interface X12Answer {
  file: string;
  /** ST03 or GS08, e.g. 005010X279A1. */
  version: string;
  people: X12Person[];
  /** AAA segments of the payer and provider loops (also in each person's `errors`). */
  errors: ClearinghouseEntityError[];
  /** EB segments in the file, for checking nothing was dropped. */
  eb_segments: number;
}

const reverse = <K extends string>(table: Record<K, string>): Map<string, K> => new Map(Object.entries(table).map(([name, code]) => [code as string, name as K]));
const BENEFIT_BY_X12 = reverse<BenefitCode>(BENEFIT_CODES);
const LEVEL_BY_X12 = reverse<CoverageLevel>(COVERAGE_LEVELS);
const PERIOD_BY_X12 = reverse<TimePeriod>(TIME_PERIODS);
const FOLLOW_UP_BY_X12 = new Map(Object.entries(FOLLOW_UP_ACTIONS));
const NETWORK: Record<string, InNetwork> = { Y: 'yes', N: 'no', U: 'unknown', W: 'not_applicable' };
const YES_NO: Record<string, 'yes' | 'no' | 'unknown'> = { Y: 'yes', N: 'no', U: 'unknown' };

function sentence(snake: string): string {
  const words = snake.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `.3` and `3.` are how some payers write numbers; the contract's decimals have digits on both sides. */
function decimal(file: string, value: string, what: string): string | undefined {
  if (!value) return undefined;
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value);
  if (!match || (!match[2] && !match[3])) throw new X12FileError(file, `has an EB segment whose ${what} is not a number`);
  const whole = match[2] || '0';
  return `${match[1]}${whole}${match[3] ? `.${match[3]}` : ''}`;
}

function isoDate(d8: string): string | undefined {
  if (!/^\d{8}$/.test(d8)) return undefined;
  const iso = `${d8.slice(0, 4)}-${d8.slice(4, 6)}-${d8.slice(6, 8)}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : undefined;
}

function dtp(elements: string[]): NonNullable<Benefit['dates']>[number] {
  const [qualifier = '', format = '', value = ''] = elements;
  if (format === 'RD8' && value.includes('-')) {
    const [start, end] = value.split('-');
    return { qualifier, start: isoDate(start) ?? start, end: isoDate(end) ?? end };
  }
  return { qualifier, start: isoDate(value) ?? value };
}

function entityError(file: string, elements: string[], level: EntityErrorLevel): ClearinghouseEntityError {
  const [, , code = '', followUp = ''] = elements;
  const follow_up_action = FOLLOW_UP_BY_X12.get(followUp);
  if (!follow_up_action) throw new X12FileError(file, `has an AAA segment whose follow-up action (AAA04) is ${followUp ? 'not an X12 code' : 'missing'}`);
  const known = AAA_REASONS[code as AaaCode] as (typeof AAA_REASONS)[AaaCode] | undefined;
  return {
    code,
    reason: known?.reason ?? 'unrecognized_reject_reason',
    description: known ? sentence(known.reason) : `Reject reason ${code.replace(/[^A-Za-z0-9]/g, '') || '(none)'}, not one X12 defines`,
    follow_up_action: follow_up_action as ClearinghouseEntityError['follow_up_action'],
    field: known?.field ?? null,
    level,
  };
}

function benefitFrom(file: string, elements: string[], delimiters: X12Delimiters): Benefit {
  const at = (n: number) => elements[n - 1] ?? '';
  const code = BENEFIT_BY_X12.get(at(1));
  if (!code) throw new X12FileError(file, `has an EB segment whose benefit code (EB01) is ${at(1) ? 'not an X12 code' : 'missing'}`);
  const coverage = at(2) ? LEVEL_BY_X12.get(at(2)) : undefined;
  if (at(2) && !coverage) throw new X12FileError(file, 'has an EB segment whose coverage level (EB02) is not an X12 code');
  const period = at(6) ? PERIOD_BY_X12.get(at(6)) : undefined;
  if (at(6) && !period) throw new X12FileError(file, 'has an EB segment whose time period (EB06) is not an X12 code');
  const codes = at(3) ? (delimiters.repetition ? at(3).split(delimiters.repetition) : [at(3)]).map((c) => c.trim()).filter(Boolean) : [];
  const service_types = [...new Set(codes.map(serviceTypeFromX12).filter((t): t is ServiceType => t !== undefined))];
  const benefit: Benefit = { code, x12_code: at(1), service_types, in_network: NETWORK[at(12)] ?? 'unknown', messages: [] };
  if (codes.length > 0) benefit.x12_service_type_codes = codes;
  if (coverage) benefit.coverage_level = coverage;
  if (at(4)) benefit.insurance_type = at(4);
  if (at(5)) benefit.plan_description = at(5);
  if (period) benefit.time_period = period;
  const amount = decimal(file, at(7), 'amount (EB07)');
  if (amount !== undefined) benefit.amount = amount;
  const percent = decimal(file, at(8), 'percent (EB08)');
  if (percent !== undefined) benefit.percent = percent;
  const quantity = decimal(file, at(10), 'quantity (EB10)');
  if (quantity !== undefined) benefit.quantity = { qualifier: at(9), value: quantity };
  if (at(11)) benefit.authorization_required = YES_NO[at(11)] ?? 'unknown';
  if (at(13)) {
    const [qualifier = '', procedure = ''] = at(13).split(delimiters.component);
    benefit.procedure = { qualifier, code: procedure };
  }
  return benefit;
}

interface Loop {
  id: string;
  parent: string;
  /** HL03: 20 payer, 21 provider, 22 subscriber, 23 dependent. */
  code: string;
  hasChildren: boolean;
  name?: { last?: string; first?: string; id?: string };
  date_of_birth?: string;
  benefits: Benefit[];
  errors: ClearinghouseEntityError[];
  children: Loop[];
}

const LEVEL: Record<string, { own: EntityErrorLevel; benefit: EntityErrorLevel }> = {
  '20': { own: 'information_source', benefit: 'information_source' },
  '21': { own: 'information_receiver', benefit: 'information_receiver' },
  '22': { own: 'subscriber', benefit: 'subscriber_benefit' },
  '23': { own: 'dependent', benefit: 'dependent_benefit' },
};

/** Reads one 271 file; throws `X12FileError` naming the file and the reason. */
export function read271(file: string, text: string): X12Answer {
  const { delimiters, transactions } = readInterchange(file, text);
  const answer: X12Answer = { file, version: transactions[0].version, people: [], errors: [], eb_segments: 0 };
  for (const transaction of transactions) {
    const loops = new Map<string, Loop>();
    const roots: Loop[] = [];
    let current: Loop | undefined;
    let benefit: Benefit | undefined;
    let related = false;
    // AAA before the first HL (none in practice) is about the whole answer: the payer's.
    const top: Loop = { id: '', parent: '', code: '20', hasChildren: true, benefits: [], errors: [], children: [] };
    for (const { tag, elements } of transaction.segments) {
      switch (tag) {
        case 'HL': {
          const [id = '', parent = '', code = '', children = ''] = elements;
          if (!LEVEL[code]) throw new X12FileError(file, 'has an HL segment whose level (HL03) is not 20, 21, 22 or 23');
          current = { id, parent, code, hasChildren: children === '1', benefits: [], errors: [], children: [] };
          loops.set(id, current);
          const up = parent ? loops.get(parent) : undefined;
          if (up) up.children.push(current);
          else roots.push(current);
          benefit = undefined;
          related = false;
          break;
        }
        case 'AAA': {
          const loop = current ?? top;
          loop.errors.push(entityError(file, elements, benefit ? LEVEL[loop.code].benefit : LEVEL[loop.code].own));
          break;
        }
        case 'NM1': {
          if (related && benefit) {
            const [code = '', , last = '', first = '', , , , , id = ''] = elements;
            (benefit.related_entities ??= []).push({ code, ...(last || first ? { name: [first, last].filter(Boolean).join(' ') } : {}), ...(id ? { id } : {}) });
          } else if (current && !benefit) {
            const [, , last = '', first = '', , , , , id = ''] = elements;
            current.name = { ...(last ? { last } : {}), ...(first ? { first } : {}), ...(id ? { id } : {}) };
          }
          break;
        }
        case 'DMG':
          if (current && !benefit && elements[0] === 'D8') current.date_of_birth = isoDate(elements[1] ?? '');
          break;
        case 'EB':
          if (!current || (current.code !== '22' && current.code !== '23')) throw new X12FileError(file, 'has an EB segment outside a subscriber or dependent loop');
          benefit = benefitFrom(file, elements, delimiters);
          current.benefits.push(benefit);
          answer.eb_segments++;
          related = false;
          break;
        case 'MSG':
          if (benefit && elements[0]) benefit.messages.push(elements[0]);
          break;
        case 'DTP':
          if (benefit && !related) (benefit.dates ??= []).push(dtp(elements));
          break;
        case 'LS':
          related = true;
          break;
        case 'LE':
          related = false;
          break;
        default:
          break;
      }
    }
    if (related) throw new X12FileError(file, 'is truncated: a 2120 loop (LS) is never closed by LE');

    answer.errors.push(...top.errors);
    const walk = (loop: Loop, chain: ClearinghouseEntityError[], payer: X12Person['payer'], subscriber?: Loop): void => {
      const errors = [...chain, ...loop.errors];
      if (loop.code === '20') {
        answer.errors.push(...loop.errors);
        payer = { ...(loop.name?.last ? { name: loop.name.last } : {}), ...(loop.name?.id ? { id: loop.name.id } : {}) };
      }
      if (loop.code === '21') answer.errors.push(...loop.errors);
      if (loop.code === '22' || loop.code === '23') {
        if (!loop.name) throw new X12FileError(file, `is truncated: a ${loop.code === '22' ? 'subscriber' : 'dependent'} loop has no NM1 segment`);
        const answers = loop.benefits.length > 0 || loop.errors.length > 0 || loop.children.length === 0;
        if (answers) {
          const memberId = loop.name.id ?? subscriber?.name?.id;
          answer.people.push({
            file,
            level: loop.code === '22' ? 'subscriber' : 'dependent',
            ...(memberId ? { member_id: memberId } : {}),
            ...(loop.name.first ? { first_name: loop.name.first } : {}),
            ...(loop.name.last ? { last_name: loop.name.last } : {}),
            ...(loop.date_of_birth ? { date_of_birth: loop.date_of_birth } : {}),
            payer,
            benefits: loop.benefits,
            errors,
          });
        }
      }
      // A payer that rejects the provider (or the whole request) answers about nobody below it.
      if (loop.hasChildren && loop.children.length === 0 && loop.errors.length === 0 && chain.length === 0 && loop.code !== '23') {
        throw new X12FileError(file, `is truncated: HL ${loop.id} says more loops follow, and none do`);
      }
      for (const child of loop.children) walk(child, errors, payer, loop.code === '22' ? loop : subscriber);
    };
    for (const root of roots) walk(root, top.errors, {});
  }
  return answer;
}
