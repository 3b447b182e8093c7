import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { COLLECTIONS, CREATABLE_COLLECTIONS, CREATE_REFERENCES, NOT_REFERENCES, isCollection } from '@src/shared/contract';

// Every create schema is a zod object; widened so each field can be parsed on its own.
const createShape = (collection: (typeof CREATABLE_COLLECTIONS)[number]): Record<string, z.ZodType> => COLLECTIONS[collection].create.shape;

/** A field name that reads as pointing at another record. */
const LOOKS_LIKE_REFERENCE = /(_id|_ids|_object_key)$/;

describe('CREATE_REFERENCES', () => {
  it('has a row for every creatable collection and no other', () => {
    expect(Object.keys(CREATE_REFERENCES).sort()).toEqual([...CREATABLE_COLLECTIONS].sort());
  });

  it('names an existing collection (or photos) as every target: local ones the desk creates, the others reference data', () => {
    for (const [collection, fields] of Object.entries(CREATE_REFERENCES)) {
      for (const [field, reference] of Object.entries(fields)) {
        const where = `${collection}.${field} -> ${reference.target}`;
        expect(reference.target === 'photos' || isCollection(reference.target), where).toBe(true);
        const creatable = reference.target === 'photos' || (isCollection(reference.target) && COLLECTIONS[reference.target].create !== null);
        expect(creatable, `${where}: local exactly when the desk can create the target`).toBe(reference.local);
      }
    }
  });

  it('declares only fields of the create schema, as lists exactly where the schema takes a list', () => {
    for (const collection of CREATABLE_COLLECTIONS) {
      const shape = createShape(collection);
      for (const [field, reference] of Object.entries(CREATE_REFERENCES[collection])) {
        expect(Object.keys(shape), `${collection}.${field}`).toContain(field);
        const takesList = shape[field]!.safeParse(['x_1']).success;
        expect(takesList, `${collection}.${field}: many`).toBe(reference.many === true);
      }
    }
  });

  it('leaves out no field of a create schema that names another record', () => {
    const forgotten: string[] = [];
    for (const collection of CREATABLE_COLLECTIONS) {
      for (const field of Object.keys(createShape(collection))) {
        const declared = Object.hasOwn(CREATE_REFERENCES[collection], field);
        if (LOOKS_LIKE_REFERENCE.test(field) && !declared && !NOT_REFERENCES.includes(field)) forgotten.push(`${collection}.${field}`);
      }
    }
    expect(forgotten, 'add them to CREATE_REFERENCES (or NOT_REFERENCES, with the reason)').toEqual([]);
  });

  it('keeps NOT_REFERENCES to fields that exist and are not declared references', () => {
    for (const field of NOT_REFERENCES) {
      const inSomeSchema = CREATABLE_COLLECTIONS.some((c) => Object.keys(createShape(c)).includes(field));
      expect(inSomeSchema, field).toBe(true);
      for (const collection of CREATABLE_COLLECTIONS) expect(Object.hasOwn(CREATE_REFERENCES[collection], field), `${collection}.${field}`).toBe(false);
    }
  });
});
