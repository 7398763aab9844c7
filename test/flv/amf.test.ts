// AMF0: brec's serializer expectations (JSON and binary round trips), every marker, and .NET number/date text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { amfToJson, jsonToAmf } from '../../src/flv/amf-json.js';
import { type AmfValue, decodeAmf, encodeAmf } from '../../src/flv/amf.js';
import { formatDotNetDate, formatDotNetDouble, parseDotNetDate } from '../../src/flv/dotnet-format.js';
import { FlvError } from '../../src/flv/errors.js';
import { corpus } from './helpers.js';

const amfDir = join(corpus, 'Expectations', 'Amf');
const json = (i: number): string => readFileSync(join(amfDir, `Json.Output_i${i}.verified.txt`), 'utf8').replace(/^\uFEFF/, '');
const binary = (i: number): Buffer => readFileSync(join(amfDir, `Binary.Output_i${i}.verified.bin`));

describe('brec AmfSerializer expectations', () => {
  for (const i of [1, 2]) {
    it(`i${i}: binary → values → JSON text equals brec's JSON`, () => {
      expect(amfToJson(decodeAmf(binary(i)))).toBe(json(i));
    });
    it(`i${i}: JSON → values → binary equals brec's bytes`, () => {
      expect(Buffer.from(encodeAmf(jsonToAmf(json(i)))).equals(binary(i))).toBe(true);
    });
    it(`i${i}: JSON → values → JSON and binary → values → binary are identities`, () => {
      expect(amfToJson(jsonToAmf(json(i)))).toBe(json(i));
      expect(Buffer.from(encodeAmf(decodeAmf(binary(i)))).equals(binary(i))).toBe(true);
    });
  }

  it('keeps the Date offset (2345-03-14T07:08:09.012+04:00 is stored with +240 minutes)', () => {
    const obj = decodeAmf(binary(1))[1] as Extract<AmfValue, { type: 'Object' }>;
    expect(obj.value.get('date2')).toEqual({ type: 'Date', value: Date.UTC(2345, 2, 14, 3, 8, 9, 12), offset: 240 });
  });
});

describe('AMF0 markers', () => {
  const roundTrip = (v: AmfValue): AmfValue => decodeAmf(encodeAmf([v]))[0]!;

  it('round-trips every supported type', () => {
    const values: AmfValue[] = [
      { type: 'Number', value: -1.5 },
      { type: 'Boolean', value: true },
      { type: 'String', value: 'héllo' },
      { type: 'Object', value: new Map([['a', { type: 'Number', value: 1 }]]) },
      { type: 'Null' },
      { type: 'Undefined' },
      { type: 'Reference', value: 7 },
      { type: 'EcmaArray', value: new Map([['1', { type: 'Null' }], ['b', { type: 'String', value: '' }]]) },
      { type: 'StrictArray', value: [{ type: 'Number', value: 2 }, { type: 'Boolean', value: false }] },
      { type: 'Date', value: 1_636_715_491_972, offset: -300 },
      { type: 'LongString', value: 'x'.repeat(70_000) },
    ];
    for (const v of values) expect(roundTrip(v)).toEqual(v);
    for (const v of values) expect(jsonToAmf(amfToJson([v]))[0]).toEqual(v.type === 'Date' ? { ...v } : v);
  });

  it('ignores the ECMA array count and reads pairs until the end marker', () => {
    const body = Buffer.from([8, 0, 0, 0, 99, 0, 1, 0x61, 5, 0, 0, 9]);
    expect(decodeAmf(body)).toEqual([{ type: 'EcmaArray', value: new Map([['a', { type: 'Null' }]]) }]);
  });

  it('strips NUL characters from strings', () => {
    expect(decodeAmf(Buffer.from([2, 0, 3, 0x61, 0, 0x62]))).toEqual([{ type: 'String', value: 'ab' }]);
  });

  it('rejects MovieClip, a bare object-end marker, unknown markers, truncation and an empty key without end marker', () => {
    for (const bytes of [[4], [9], [13], [0, 1, 2], [3, 0, 0, 5], [2, 0, 5, 0x61]]) {
      expect(() => decodeAmf(Buffer.from(bytes))).toThrow(FlvError);
      try {
        decodeAmf(Buffer.from(bytes));
      } catch (e) {
        expect((e as FlvError).code).toBe('AMF_ERROR');
      }
    }
  });

  it('keys keep insertion order, including integer-like keys (JSON.parse would move them)', () => {
    const text = '[{"Type":"Object","Value":{"z":{"Type":"Null"},"2":{"Type":"Null"},"a":{"Type":"Null"}}}]';
    const v = jsonToAmf(text)[0] as Extract<AmfValue, { type: 'Object' }>;
    expect([...v.value.keys()]).toEqual(['z', '2', 'a']);
    expect(amfToJson([v])).toBe(text);
  });
});

describe('.NET text forms', () => {
  it('formats doubles like Newtonsoft (round-trip digits, ".0", E notation from 1e15 and below 1e-5)', () => {
    const cases: [number, string][] = [
      [0, '0.0'], [1920, '1920.0'], [8.323, '8.323'], [-95.7, '-95.7'], [197653.845, '197653.845'], [5e-324, '5E-324'],
      [1e15, '1E+15'], [123456789012345, '123456789012345.0'], [1.5e16, '1.5E+16'], [0.0001, '0.0001'], [0.00001, '1E-05'],
      [1.7976931348623157e308, '1.7976931348623157E+308'], [NaN, 'NaN'], [-0, '-0.0'],
    ];
    for (const [v, s] of cases) expect(formatDotNetDouble(v), String(v)).toBe(s);
  });

  it('formats and parses DateTimeOffset text', () => {
    expect(formatDotNetDate(Date.UTC(2021, 10, 12, 11, 11, 31, 972), 0)).toBe('2021-11-12T11:11:31.972+00:00');
    expect(formatDotNetDate(Date.UTC(2021, 10, 12, 11, 11, 31, 500), -90)).toBe('2021-11-12T09:41:31.5-01:30');
    expect(formatDotNetDate(Date.UTC(2021, 0, 1), 480)).toBe('2021-01-01T08:00:00+08:00');
    expect(parseDotNetDate('2345-03-14T07:08:09.012+04:00')).toEqual({ value: Date.UTC(2345, 2, 14, 3, 8, 9, 12), offset: 240 });
    expect(parseDotNetDate('0050-01-01T00:00:00Z')!.value).toBe(new Date('0050-01-01T00:00:00Z').getTime());
  });
});
