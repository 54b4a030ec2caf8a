import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LDAP_SECRET_MASK, LDAP_UNCONFIGURED, ldapConfigSchema } from '@cubby/shared';
import { ldapValuesOf, validateLdapForm } from './ldap-form.ts';

const unsaved = ldapValuesOf(LDAP_UNCONFIGURED);

describe('validateLdapForm', () => {
  it('names the fields a directory cannot do without', () => {
    const result = validateLdapForm({ ...unsaved, userFilter: '(uid=alice)', timeoutSeconds: '90' });
    assert.deepEqual(result, {
      ok: false,
      errors: {
        url: 'admin.ldap.errors.urlInvalid',
        userBase: 'admin.ldap.errors.userBaseRequired',
        userFilter: 'admin.ldap.errors.filterInvalid',
        timeoutSeconds: 'admin.ldap.errors.timeoutInvalid',
      },
    });
  });

  it('sends what the server accepts, the mask kept as is', () => {
    const result = validateLdapForm({
      ...unsaved,
      enabled: true,
      url: ' ldaps://dc1.corp.example.com ',
      bindDn: 'CN=Cubby,DC=corp,DC=example,DC=com',
      bindPassword: LDAP_SECRET_MASK,
      userBase: 'DC=corp,DC=example,DC=com',
      userFilter: '(sAMAccountName={username})',
      emailAttribute: '',
      timeoutSeconds: '3',
    });
    assert.ok(result.ok);
    assert.equal(result.input.bind_password, LDAP_SECRET_MASK);
    assert.equal(result.input.email_attribute, 'mail');
    assert.equal(result.input.url, 'ldaps://dc1.corp.example.com');
    assert.equal(ldapConfigSchema.safeParse(result.input).success, true);
  });
});
