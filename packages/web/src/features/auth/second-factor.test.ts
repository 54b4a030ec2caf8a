import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secondFactorProblem, toSecondFactor } from './second-factor.ts';

test('a code from the app is six digits, spaces allowed; a recovery code anything non-empty', () => {
  assert.equal(secondFactorProblem('otp', '123 456'), null);
  assert.equal(secondFactorProblem('otp', '12345'), 'auth.login.twoFactor.codeInvalid');
  assert.equal(secondFactorProblem('otp', '12345a'), 'auth.login.twoFactor.codeInvalid');
  assert.equal(secondFactorProblem('recovery', '  '), 'auth.login.twoFactor.recoveryRequired');
  assert.equal(secondFactorProblem('recovery', 'abcde-fghjk'), null);
});

test('the body field carries the code without spaces, or the recovery code trimmed', () => {
  assert.deepEqual(toSecondFactor('otp', ' 123 456 '), { otp: '123456' });
  assert.deepEqual(toSecondFactor('recovery', ' abcde-fghjk '), { recovery_code: 'abcde-fghjk' });
});
