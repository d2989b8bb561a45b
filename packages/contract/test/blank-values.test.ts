import { describe, expect, it } from 'vitest';
import { operations, zodErrorToApiError } from '../src/index.js';

function codeFor(id: keyof typeof operations, input: Record<string, unknown>) {
  const operation = operations[id];
  const result = operation.input.safeParse(input);
  if (result.success) return null;
  const error = zodErrorToApiError(result.error, input, 'fieldCodes' in operation ? operation.fieldCodes : []);
  return { code: error.code, field: error.details?.field };
}

describe('whitespace-only values count as missing', () => {
  it('gives the missing-field codes for blank session ids, checkpoint content and promote paths', () => {
    expect(codeFor('sessions.checkpoint', { sessionId: '   ', content: 'x' })).toEqual({
      code: 'SESSION_ID_REQUIRED',
      field: 'sessionId',
    });
    expect(codeFor('sessions.checkpoint', { sessionId: 's', content: ' \n\t ' })).toEqual({
      code: 'SESSION_CONTENT_REQUIRED',
      field: 'content',
    });
    expect(codeFor('sessions.end', { sessionId: ' ' })).toEqual({ code: 'SESSION_ID_REQUIRED', field: 'sessionId' });
    expect(codeFor('skills.promote', { sessionId: 's', path: '  ' })).toEqual({
      code: 'SKILL_FILE_PATH_REQUIRED',
      field: 'path',
    });
  });

  it('rejects blank memory content and skill paths as INVALID_REQUEST', () => {
    expect(codeFor('memories.add', { content: '    ' })).toEqual({ code: 'INVALID_REQUEST', field: 'content' });
    expect(codeFor('skills.upsert', { path: ' ', content: 'x' })).toEqual({ code: 'INVALID_REQUEST', field: 'path' });
    expect(codeFor('memories.add', { content: ' x ' })).toBeNull();
  });
});
