import { describe, expect, it } from 'vitest';
import { detectMapping, readScheduleTable } from '@src/main/appointments/schedule-file';
import { nameKey, readAppointmentDate, readDateOfBirth, readTime, splitPatientName } from '@src/main/appointments/schedule-values';

describe('schedule values', () => {
  it('reads appointment dates in the three formats, with or without a time after them', () => {
    expect(readAppointmentDate('1/5/2027')).toEqual({ date: '2027-01-05' });
    expect(readAppointmentDate('2027-01-05')).toEqual({ date: '2027-01-05' });
    expect(readAppointmentDate('01-05-27')).toEqual({ date: '2027-01-05' });
    expect(readAppointmentDate('1/5/2027 9:30 AM')).toEqual({ date: '2027-01-05', time: '9:30 AM' });
    expect(readAppointmentDate('2027-01-05T14:00')).toEqual({ date: '2027-01-05', time: '14:00' });
    for (const bad of ['2/30/2027', '13/1/2027', '2027-02-29', 'tomorrow', '']) expect(readAppointmentDate(bad), bad).toBeNull();
  });

  it('reads 12- and 24-hour times and refuses what is not one', () => {
    expect(['9:30 AM', '9:30a', '9:30 a.m.', '09:30', '0930', '09:30:00'].map(readTime)).toEqual(Array(6).fill('09:30'));
    expect(['12:00 PM', '12:05 AM', '2pm', '14:05'].map(readTime)).toEqual(['12:00', '00:05', '14:00', '14:05']);
    for (const bad of ['9', '25:00', '13:00 PM', '9:75', '7.5', 'noon']) expect(readTime(bad), bad).toBeNull();
  });

  it('reads dates of birth with the desk century rule and refuses future or impossible ones', () => {
    expect(readDateOfBirth('3/14/80', '2026-11-23')).toBe('1980-03-14');
    expect(readDateOfBirth('01-02-05', '2026-11-23')).toBe('2005-01-02');
    expect(readDateOfBirth('2030-01-01', '2026-11-23')).toBeNull();
    expect(readDateOfBirth('2/31/1980', '2026-11-23')).toBeNull();
  });

  it('splits "Last, First" and "First Last", and compares names forgiving case, accents, hyphens and apostrophes', () => {
    expect(splitPatientName('PEÑA-RUIZ, MARÍA JOSÉ')).toEqual({ first_name: 'MARÍA JOSÉ', last_name: 'PEÑA-RUIZ' });
    expect(splitPatientName('Ada Lovelace')).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(splitPatientName('Cher')).toBeNull();
    expect(nameKey('PEÑA-RUIZ')).toBe(nameKey('pena ruiz'));
    expect(nameKey("O'Brien")).toBe(nameKey('OBRIEN'));
    expect(nameKey('Zoë')).not.toBe(nameKey('Zoey'));
  });
});

describe('schedule files', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('finds the delimiter and the columns by their header names, in any order', () => {
    const table = readScheduleTable(bytes('DOB\tPatient Name\tAppt Date\tStart Time\tRendering Provider\n1/2/1980\tDoe, Jane\t1/5/2027\t9:00 AM\tDr. X\n'));
    expect(table.delimiter).toBe('\t');
    expect(detectMapping(table.headers)).toEqual({ date_of_birth: 0, patient_name: 1, date: 2, time: 3, provider: 4 });
    expect(readScheduleTable(bytes('Date;Time;First;Last;DOB\n1/5/2027;9:00;Jane;Doe;1/2/1980\n')).delimiter).toBe(';');
  });

  it('reads a file without a header row as rows, and a UTF-16 file by its byte-order mark', () => {
    const headerless = readScheduleTable(bytes('1/5/2027,9:00,"Doe, Jane",1/2/1980\n1/5/2027,9:10,"Roe, Ann",3/4/1990\n'));
    expect(headerless.headers).toEqual([]);
    expect(headerless.rows).toHaveLength(2);
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from('Date,Patient,DOB\n1/5/2027,"Peña, José",1/2/1980\n', 'utf16le')]);
    const table = readScheduleTable(utf16);
    expect(table.encoding).toBe('utf-16le');
    expect(table.rows[0][1]).toBe('Peña, José');
  });
});
