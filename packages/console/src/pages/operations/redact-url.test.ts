import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('shows a URL without credentials as the server wrote it', () => {
    expect(redactUrl('file:tenants/default/acme-a7518c98d7aa.db')).toBe('file:tenants/default/acme-a7518c98d7aa.db');
    expect(redactUrl('libsql://acme.example.io')).toBe('libsql://acme.example.io');
  });

  it('hides a user, a password and credential query parameters', () => {
    expect(redactUrl('libsql://ada:secret@acme.example.io?authToken=abc&tls=1')).toBe(
      'libsql://acme.example.io?authToken=%E2%80%A6&tls=1',
    );
    expect(redactUrl('not a url?token=abc')).toBe('not a url');
  });
});
