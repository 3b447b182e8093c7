/**
 * Canary PHI: a patient and member id that exist nowhere else, so finding these strings in
 * a file proves PHI reached the disk readable (encryption tests on the data folder, the
 * end-to-end run on its log folders: see `scripts/scan-plaintext.ts`).
 */
export const CANARY_PATIENT = { first_name: 'Quillonia', last_name: 'Zephyrwood', date_of_birth: '1961-07-04' } as const;
export const CANARY_MEMBER_ID = 'ZQX884207153';
export const CANARY_STRINGS: readonly string[] = [CANARY_PATIENT.first_name, CANARY_PATIENT.last_name, CANARY_PATIENT.date_of_birth, CANARY_MEMBER_ID];
