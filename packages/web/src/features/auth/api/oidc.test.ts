import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSsoLanding } from './oidc.ts';

describe('parseSsoLanding', () => {
  it('reads the session the server redirected with', () => {
    assert.deepEqual(parseSsoLanding('#token=abc&expiresAt=2026-01-01T00%3A00%3A00Z&username=al%20ice'), {
      kind: 'session',
      token: 'abc',
      username: 'al ice',
    });
  });

  it('reads a known error code, and anything else as a failure', () => {
    assert.deepEqual(parseSsoLanding('#error=state_invalid'), { kind: 'error', code: 'state_invalid' });
    assert.deepEqual(parseSsoLanding('#error=<script>'), { kind: 'error', code: 'failed' });
    assert.deepEqual(parseSsoLanding(''), { kind: 'error', code: 'failed' });
  });
});
