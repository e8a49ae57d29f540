import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error';
import { csvCells, readCsvImport } from './csv-import';

const SPEC = { line: 'gateway', rows: 'gateways', columns: ['id', 'hardware_id', 'x', 'name'], required: ['hardware_id'], maxRows: 2 };

function refusal(run: () => unknown): { message: string; errors: unknown[] } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { message: error.message, errors: error.errors };
    throw error;
  }
  throw new Error('not refused');
}

describe('readCsvImport', () => {
  it('reads the header in any case and the lines', () => {
    const { names, rows } = readCsvImport(' Hardware_ID ,X\r\naa:bb,1.5\r\n', SPEC);
    expect(names).toEqual(['hardware_id', 'x']);
    expect(rows.map((row) => [row.line, row.fields])).toEqual([[2, ['aa:bb', '1.5']]]);
  });

  it('refuses an empty body, a malformed one (naming the line), a missing column and too many lines, each a 422', () => {
    expect(refusal(() => readCsvImport('  ', SPEC))).toEqual({
      message: 'The CSV body is empty',
      errors: [{ message: 'needs a header line and one line per gateway', code: 'required', fields: 'body' }],
    });
    expect(refusal(() => readCsvImport(42, SPEC)).message).toBe('The CSV body is empty');
    expect(refusal(() => readCsvImport('hardware_id\n"open', SPEC))).toMatchObject({ message: 'The CSV is malformed', errors: [{ code: 'invalid', fields: 'line 2' }] });
    expect(refusal(() => readCsvImport('name\nx', SPEC))).toEqual({
      message: 'The CSV header needs a hardware_id column',
      errors: [{ message: 'the first line names the columns: id,hardware_id,x,name', code: 'required', fields: 'line 1.hardware_id' }],
    });
    expect(refusal(() => readCsvImport('x\n1', { ...SPEC, required: ['hardware_id', 'name'] })).errors).toHaveLength(2);
    expect(refusal(() => readCsvImport('x\n1', { ...SPEC, required: ['hardware_id', 'name'] })).message).toBe('The CSV header lacks columns');
    expect(refusal(() => readCsvImport('hardware_id\na\nb\nc', SPEC))).toEqual({
      message: 'At most 2 gateways per import',
      errors: [{ message: 'too many lines', code: 'invalid', fields: 'body' }],
    });
  });
});

describe('csvCells', () => {
  it('keeps the known columns less the ignored, numbers as numbers (a decimal comma too), formula escapes undone, empty as null where nullable', () => {
    const { names, rows } = readCsvImport("id;hardware_id;x;name;extra\n7;'=cmd;2,5;;x\n8;b;1e2x;n;", { ...SPEC, maxRows: 5 });
    const rules = { columns: SPEC.columns, numeric: new Set(['x']), nullable: new Set(['name']), ignored: new Set(['id']) };
    expect(csvCells(names, rows[0], rules)).toEqual({ hardware_id: '=cmd', x: 2.5, name: null });
    expect(csvCells(names, rows[1], rules)).toEqual({ hardware_id: 'b', x: '1e2x', name: 'n' });
  });
});
