import {
  BENEFIT_CODES,
  type Benefit,
  type BenefitCode,
  type InNetwork,
  type ServiceType,
} from '../../shared/contract';

/**
 * Realistic 271 benefits for the sandbox: what a payer's EB segments say about one member
 * and one service type. Deterministic: the member id picks the plan and how much of the
 * deductible and out-of-pocket maximum is already met; the service type picks how the
 * visit is cost-shared.
 */

interface Plan {
  name: string;
  /** An HMO pays nothing out of network. */
  outOfNetwork: boolean;
  deductible: { individual: number; family: number };
  outOfPocket: { individual: number; family: number };
  coInsurance: { in: number; out: number };
  /** In-network co-payments; null on a high-deductible plan: the deductible, then co-insurance. */
  copay: { primary: number; specialist: number; urgent: number; emergency: number } | null;
}

const PLANS: readonly Plan[] = [
  {
    name: 'Choice PPO Gold',
    outOfNetwork: true,
    deductible: { individual: 500, family: 1000 },
    outOfPocket: { individual: 3000, family: 6000 },
    coInsurance: { in: 0.1, out: 0.3 },
    copay: { primary: 20, specialist: 40, urgent: 50, emergency: 150 },
  },
  {
    name: 'Open Access Silver',
    outOfNetwork: true,
    deductible: { individual: 1500, family: 3000 },
    outOfPocket: { individual: 6000, family: 12000 },
    coInsurance: { in: 0.2, out: 0.4 },
    copay: { primary: 30, specialist: 60, urgent: 75, emergency: 300 },
  },
  {
    name: 'HSA Bronze HDHP',
    outOfNetwork: true,
    deductible: { individual: 3200, family: 6400 },
    outOfPocket: { individual: 7000, family: 14000 },
    coInsurance: { in: 0.3, out: 0.5 },
    copay: null,
  },
  {
    name: 'Select HMO',
    outOfNetwork: false,
    deductible: { individual: 250, family: 500 },
    outOfPocket: { individual: 4500, family: 9000 },
    coInsurance: { in: 0.2, out: 1 },
    copay: { primary: 15, specialist: 35, urgent: 50, emergency: 250 },
  },
];

type Category =
  | 'office'
  | 'specialist'
  | 'preventive'
  | 'urgent'
  | 'emergency'
  | 'therapy'
  | 'mental_health'
  | 'imaging'
  | 'lab'
  | 'inpatient'
  | 'pharmacy'
  | 'dental'
  | 'vision'
  | 'not_covered'
  | 'medical';

const CATEGORY_OF: Partial<Record<ServiceType, Category>> = {};
function assign(category: Category, types: ServiceType[]): void {
  for (const type of types) CATEGORY_OF[type] = category;
}
assign('office', [
  'professional_physician_visit_office', 'physician_visit_office_sick', 'professional_physician', 'medical_care',
  'professional_physician_visit_outpatient', 'professional_physician_visit_home', 'pediatric',
]);
assign('specialist', [
  'consultation', 'allergy', 'allergy_testing', 'cardiac', 'dermatology', 'endocrine', 'gastrointestinal', 'gynecological',
  'neurology', 'obstetrical', 'obstetrical_gynecological', 'oncology', 'orthopedic', 'podiatry', 'podiatry_office_visits',
  'pulmonary', 'renal', 'second_surgical_opinion', 'third_surgical_opinion', 'audiology_exam', 'otological_exam',
]);
assign('preventive', [
  'routine_physical', 'physician_visit_office_well', 'immunizations', 'flu_vaccination', 'pneumonia_vaccine', 'well_baby_care',
  'screening_laboratory', 'screening_x_ray', 'mammogram_high_risk_patient', 'mammogram_low_risk_patient', 'routine_exam',
  'family_planning', 'smoking_cessation',
]);
assign('urgent', ['urgent_care']);
assign('emergency', ['emergency_services', 'hospital_emergency_accident', 'hospital_emergency_medical', 'air_transportation', 'licensed_ambulance']);
assign('therapy', [
  'physical_therapy', 'occupational_therapy', 'speech_therapy', 'chiropractic', 'chiropractic_office_visits', 'physical_medicine',
  'rehabilitation', 'rehabilitation_outpatient', 'cardiac_rehabilitation', 'pulmonary_rehabilitation', 'cognitive_therapy', 'acupuncture',
]);
assign('mental_health', [
  'mental_health', 'mental_health_provider_outpatient', 'mental_health_facility_outpatient', 'psychiatric', 'psychiatric_outpatient',
  'psychotherapy', 'substance_abuse', 'substance_abuse_facility_outpatient', 'alcoholism', 'drug_addiction', 'social_work',
]);
assign('imaging', ['mri_cat_scan', 'diagnostic_x_ray', 'diagnostic_medical', 'radiation_therapy', 'invasive_procedures']);
assign('lab', ['diagnostic_lab', 'pathology', 'blood_charges']);
assign('inpatient', [
  'hospital', 'hospital_inpatient', 'hospital_room_and_board', 'hospital_outpatient', 'hospital_ambulatory_surgical',
  'ambulatory_service_center_facility', 'surgical', 'surgical_assistance', 'surgical_benefits_facility',
  'surgical_benefits_professional_physician', 'anesthesia', 'anesthesiologist', 'intensive_care', 'coronary_care',
  'neonatal_intensive_care', 'maternity', 'newborn_care', 'nursery', 'transplants', 'chemotherapy', 'dialysis',
  'mental_health_facility_inpatient', 'mental_health_provider_inpatient', 'psychiatric_inpatient', 'psychiatric_room_and_board',
  'substance_abuse_facility_inpatient', 'rehabilitation_inpatient', 'rehabilitation_room_and_board', 'skilled_nursing_care',
  'skilled_nursing_care_room_and_board', 'partial_hospitalization_psychiatric', 'residential_psychiatric_treatment',
  'hospice', 'home_health_care', 'home_health_visits', 'private_duty_nursing', 'oral_surgery',
]);
assign('pharmacy', [
  'pharmacy', 'brand_name_prescription_drug', 'brand_name_prescription_drug_formulary', 'brand_name_prescription_drug_non_formulary',
  'generic_prescription_drug', 'generic_prescription_drug_formulary', 'generic_prescription_drug_non_formulary',
  'mail_order_prescription_drug', 'mail_order_prescription_drug_brand_name', 'mail_order_prescription_drug_generic',
  'free_standing_prescription_drug', 'home_health_prescriptions',
]);
assign('dental', [
  'dental_care', 'dental_crowns', 'dental_accident', 'diagnostic_dental', 'routine_preventive_dental', 'endodontics', 'periodontics',
  'orthodontics', 'prosthodontics', 'restorative', 'adjunctive_dental_services', 'maxillofacial_prosthetics',
]);
assign('vision', ['vision_optometry', 'eye', 'eyewear_and_eyewear_accessories', 'frames', 'lenses']);
assign('not_covered', [
  'in_vitro_fertilization', 'infertility', 'experimental_drug_therapy', 'massage_therapy', 'nonmedically_necessary_physical',
  'long_term_care', 'respite_care', 'escrow_or_impound_service', 'non_escrow_or_non_impound_service', 'independent_medical_evaluation',
]);

export function benefitCategory(serviceType: ServiceType): Category {
  return CATEGORY_OF[serviceType] ?? 'medical';
}

/** FNV-1a: a stable number from the member id, so one member always sees the same plan. */
function hash(text: string, salt: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${salt}:${text.toUpperCase()}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A fraction in [0, 1) drawn from the member id. */
function fraction(memberId: string, salt: string): number {
  return hash(memberId, salt) / 2 ** 32;
}

const money = (dollars: number) => dollars.toFixed(2);
const percent = (value: number) => value.toFixed(2);

function eb(code: BenefitCode, fields: Omit<Benefit, 'code' | 'x12_code' | 'messages'> & { messages?: string[] }): Benefit {
  return { code, x12_code: BENEFIT_CODES[code], ...fields, messages: fields.messages ?? [] };
}

/** The plan this member id is on. */
export function planFor(memberId: string): Plan {
  return PLANS[hash(memberId, 'plan') % PLANS.length];
}

/**
 * Deductible and out-of-pocket: calendar-year totals and what remains, individual and
 * family, in and out of network (EB01 C and G with EB06 23 and 29).
 */
function accumulators(plan: Plan, memberId: string, family: boolean): Benefit[] {
  const planWide: ServiceType[] = ['health_benefit_plan_coverage'];
  const individualMet = Math.round(plan.deductible.individual * fraction(memberId, 'ded') * 100) / 100;
  const familyMet = Math.min(plan.deductible.family, individualMet + Math.round((plan.deductible.family - plan.deductible.individual) * fraction(memberId, 'fam')));
  const oopIndividualMet = Math.min(plan.outOfPocket.individual, individualMet + Math.round(plan.outOfPocket.individual * 0.2 * fraction(memberId, 'oop')));
  const oopFamilyMet = Math.min(plan.outOfPocket.family, Math.max(familyMet, oopIndividualMet) + Math.round(plan.outOfPocket.family * 0.1 * fraction(memberId, 'oopf')));
  const networks: { in_network: InNetwork; factor: number }[] = plan.outOfNetwork
    ? [
        { in_network: 'yes', factor: 1 },
        { in_network: 'no', factor: 2 },
      ]
    : [{ in_network: 'yes', factor: 1 }];
  const out: Benefit[] = [];
  for (const { in_network, factor } of networks) {
    const rows: [BenefitCode, 'individual' | 'family', number, number][] = [
      ['deductible', 'individual', plan.deductible.individual, individualMet],
      ['deductible', 'family', plan.deductible.family, familyMet],
      ['out_of_pocket_stop_loss', 'individual', plan.outOfPocket.individual, oopIndividualMet],
      ['out_of_pocket_stop_loss', 'family', plan.outOfPocket.family, oopFamilyMet],
    ];
    for (const [code, coverage_level, total, met] of rows) {
      if (coverage_level === 'family' && !family) continue;
      // Out of network has its own, larger totals; nothing has been met there.
      const year = total * factor;
      const remaining = factor === 1 ? total - met : year;
      out.push(eb(code, { service_types: planWide, coverage_level, time_period: 'calendar_year', amount: money(year), in_network }));
      out.push(eb(code, { service_types: planWide, coverage_level, time_period: 'remaining', amount: money(remaining), in_network }));
    }
  }
  if (!plan.outOfNetwork) {
    out.push(eb('non_covered', { service_types: planWide, in_network: 'no', messages: ['Out-of-network services are not covered except emergencies'] }));
  }
  return out;
}

function coInsurance(plan: Plan, types: ServiceType[], messages: string[] = []): Benefit[] {
  const out = [eb('co_insurance', { service_types: types, coverage_level: 'individual', percent: percent(plan.coInsurance.in), in_network: 'yes', messages: ['Deductible applies', ...messages] })];
  if (plan.outOfNetwork) {
    out.push(eb('co_insurance', { service_types: types, coverage_level: 'individual', percent: percent(plan.coInsurance.out), in_network: 'no', messages: ['Deductible applies', ...messages] }));
  }
  return out;
}

/** A co-payment in network; out of network the plan's co-insurance. Without co-payments (HDHP), co-insurance throughout. */
function coPayment(plan: Plan, types: ServiceType[], amount: number | undefined, messages: string[] = []): Benefit[] {
  if (amount === undefined) return coInsurance(plan, types, messages);
  const out = [eb('co_payment', { service_types: types, coverage_level: 'individual', time_period: 'visit', amount: money(amount), in_network: 'yes', messages })];
  if (plan.outOfNetwork) {
    out.push(eb('co_insurance', { service_types: types, coverage_level: 'individual', percent: percent(plan.coInsurance.out), in_network: 'no', messages: ['Deductible applies'] }));
  }
  return out;
}

function visitLimit(types: ServiceType[], perYear: number, memberId: string): Benefit[] {
  const used = Math.floor(perYear * 0.5 * fraction(memberId, 'visits'));
  return [
    eb('limitations', { service_types: types, time_period: 'calendar_year', quantity: { qualifier: 'VS', value: String(perYear) }, in_network: 'not_applicable', messages: [`Limited to ${perYear} visits per calendar year`] }),
    eb('limitations', { service_types: types, time_period: 'remaining', quantity: { qualifier: 'VS', value: String(perYear - used) }, in_network: 'not_applicable' }),
  ];
}

function serviceBenefits(plan: Plan, serviceType: ServiceType, memberId: string): Benefit[] {
  const types = [serviceType];
  const copay = plan.copay;
  switch (benefitCategory(serviceType)) {
    case 'office':
      return coPayment(plan, types, copay?.primary);
    case 'specialist':
      return coPayment(plan, types, copay?.specialist, copay ? ['Specialist co-payment'] : []);
    case 'preventive': {
      const out = [eb('co_payment', { service_types: types, coverage_level: 'individual', time_period: 'visit', amount: money(0), in_network: 'yes', messages: ['Preventive care covered in full in network; deductible does not apply'] })];
      if (plan.outOfNetwork) out.push(...coInsurance(plan, types).filter((b) => b.in_network === 'no'));
      return out;
    }
    case 'urgent':
      return coPayment(plan, types, copay?.urgent);
    case 'emergency':
      // Emergencies cost the same wherever they happen (the No Surprises Act).
      return [
        eb('co_payment', { service_types: types, coverage_level: 'individual', time_period: 'visit', amount: money(copay?.emergency ?? 0), in_network: 'yes', messages: copay ? ['Co-payment waived if admitted'] : ['Deductible applies'] }),
        eb('co_payment', { service_types: types, coverage_level: 'individual', time_period: 'visit', amount: money(copay?.emergency ?? 0), in_network: 'no', messages: ['Emergency services paid at the in-network level'] }),
      ];
    case 'therapy':
      return [...coPayment(plan, types, copay?.specialist), ...visitLimit(types, 20, memberId)];
    case 'mental_health':
      return [...coPayment(plan, types, copay?.primary, ['Mental health parity: same cost as a primary care visit'])];
    case 'imaging':
      return coInsurance(plan, types).map((b) =>
        serviceType === 'mri_cat_scan' ? { ...b, authorization_required: 'yes' as const, messages: [...b.messages, 'Prior authorization required'] } : b,
      );
    case 'lab':
      return [eb('co_payment', { service_types: types, coverage_level: 'individual', time_period: 'visit', amount: money(0), in_network: 'yes', messages: ['Covered in full at an in-network lab'] }), ...coInsurance(plan, types).filter((b) => b.in_network === 'no')];
    case 'inpatient':
      return coInsurance(plan, types).map((b) => ({ ...b, authorization_required: 'yes' as const, messages: [...b.messages, 'Prior authorization required for admissions and scheduled procedures'] }));
    case 'pharmacy': {
      const generic = serviceType.includes('generic');
      const nonFormulary = serviceType.includes('non_formulary');
      const mail = serviceType.startsWith('mail_order');
      const base = generic ? 10 : nonFormulary ? 70 : 40;
      const amount = mail ? base * 2 : base;
      return [
        eb('co_payment', {
          service_types: types,
          coverage_level: 'individual',
          amount: money(amount),
          in_network: 'yes',
          messages: [mail ? '90-day supply by mail order' : '30-day supply at a retail pharmacy', ...(generic ? [] : ['Tiered formulary applies'])],
        }),
      ];
    }
    case 'dental':
      return [eb('non_covered', { service_types: types, in_network: 'not_applicable', messages: ['Dental services are not covered by this medical plan; contact the dental carrier'] })];
    case 'vision':
      if (serviceType === 'vision_optometry' || serviceType === 'eye') {
        return [
          eb('co_payment', { service_types: types, coverage_level: 'individual', time_period: 'visit', amount: money(copay ? 10 : 0), in_network: 'yes', messages: ['Routine eye exam'] }),
          eb('limitations', { service_types: types, time_period: 'calendar_year', quantity: { qualifier: 'VS', value: '1' }, in_network: 'not_applicable', messages: ['One routine exam per calendar year'] }),
        ];
      }
      return [eb('non_covered', { service_types: types, in_network: 'not_applicable', messages: ['Eyewear is not covered by this medical plan'] })];
    case 'not_covered':
      return [eb('non_covered', { service_types: types, in_network: 'not_applicable', messages: ['Not a covered benefit under this plan'] })];
    case 'medical':
      return coInsurance(plan, types);
  }
}

/**
 * Benefits of an active plan for one service type: active coverage (EB01 1), the plan's
 * deductible and out-of-pocket accumulators, and the service's own cost share.
 */
export function buildActiveBenefits(memberId: string, serviceType: ServiceType, planName?: string | null): Benefit[] {
  const plan = planFor(memberId);
  const family = fraction(memberId, 'family') < 0.5;
  return [
    eb('active_coverage', {
      service_types: [serviceType],
      coverage_level: family ? 'family' : 'individual',
      in_network: 'not_applicable',
      messages: [planName ?? plan.name],
    }),
    ...accumulators(plan, memberId, family),
    ...serviceBenefits(plan, serviceType, memberId),
  ];
}

/** An inactive plan: one EB01 6 segment, as payers answer for terminated coverage. */
export function buildInactiveBenefits(serviceType: ServiceType): Benefit[] {
  return [
    eb('inactive', {
      service_types: [serviceType],
      coverage_level: 'individual',
      in_network: 'not_applicable',
      messages: ['Coverage terminated; ask the patient for their current insurance'],
    }),
  ];
}
