import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_TYPE_X12, SERVICE_TYPES, ServiceType, serviceTypeFromX12 } from '@src/shared/contract';

// The seed's table, beside the repository (CI clones main with shared/ next to it).
const TSV = path.resolve(__dirname, '../../../../shared/contract/service-types.tsv');

describe('service types', () => {
  it('match the seed table, name for name and code for code', () => {
    const rows = fs
      .readFileSync(TSV, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t').map((c) => c.trim()));
    expect(rows).toHaveLength(190);
    expect([...SERVICE_TYPES]).toEqual(rows.map(([name]) => name));
    for (const [name, code] of rows) expect(SERVICE_TYPE_X12[name as ServiceType]).toBe(code === '' ? null : code);
  });

  it('accept every listed type and refuse others', () => {
    for (const type of SERVICE_TYPES) expect(ServiceType.safeParse(type).success).toBe(true);
    for (const bad of ['', 'Chiropractic', 'chiropractic ', 'dental', '30']) expect(ServiceType.safeParse(bad).success).toBe(false);
  });

  it('map X12 codes back to names', () => {
    expect(serviceTypeFromX12('30')).toBe('health_benefit_plan_coverage');
    expect(serviceTypeFromX12('33')).toBe('chiropractic');
    expect(serviceTypeFromX12('ZZZ')).toBeUndefined();
  });
});
