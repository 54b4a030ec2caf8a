import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OIDC_SECRET_MASK, oidcProviderCreateSchema } from '@cubby/shared';
import { emptySsoForm, validateSsoForm } from './sso-form.ts';

describe('validateSsoForm', () => {
  it('names the required fields that are empty', () => {
    const result = validateSsoForm(emptySsoForm());
    assert.deepEqual(result, {
      ok: false,
      errors: {
        name: 'admin.sso.errors.nameRequired',
        issuer: 'admin.sso.errors.issuerRequired',
        clientId: 'admin.sso.errors.clientIdRequired',
      },
    });
  });

  it('sends what the server accepts: admin values split by lines or commas, the mask kept as is', () => {
    const result = validateSsoForm({
      ...emptySsoForm(),
      name: ' Keycloak ',
      issuer: 'https://id.example.com/realms/main',
      clientId: 'cubby',
      clientSecret: OIDC_SECRET_MASK,
      roleClaim: 'groups',
      adminValues: 'admins\n ops , \n',
    });
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.deepEqual(result.input.admin_values, ['admins', 'ops']);
    assert.equal(result.input.client_secret, OIDC_SECRET_MASK);
    assert.equal(result.input.name, 'Keycloak');
    assert.equal(oidcProviderCreateSchema.safeParse(result.input).success, true);
  });
});
