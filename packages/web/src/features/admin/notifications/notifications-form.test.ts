/** The notifications screen's form checks: what the webhook dialog and the SMTP form send, or refuse. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTIFY_SECRET_MASK } from '@cubby/shared';
import {
  randomSecret,
  smtpValuesOf,
  validateSmtpForm,
  validateWebhookForm,
  webhookValuesOf,
} from './notifications-form.ts';

describe('webhook form', () => {
  it('sends a new webhook with every event by default, trimmed, the events in their order', () => {
    const values = { ...webhookValuesOf(), url: ' https://hooks.example/x ', secret: randomSecret() };
    const result = validateWebhookForm(values);
    assert.ok(result.ok);
    assert.equal(result.input.url, 'https://hooks.example/x');
    assert.deepEqual(result.input.events, [
      'share.created',
      'share.viewed',
      'share.expired',
      'share.uploaded',
    ]);
    assert.equal(result.input.secret.length, 64);
  });

  it('refuses a bad address, a short secret and no events; keeps a masked secret', () => {
    const bad = validateWebhookForm({ name: '', url: 'ftp://x', secret: 'short', events: [], enabled: true });
    assert.deepEqual(!bad.ok && bad.errors, {
      url: 'admin.notifications.errors.urlInvalid',
      secret: 'admin.notifications.errors.secretShort',
      events: 'admin.notifications.errors.eventsRequired',
    });
    const kept = validateWebhookForm({
      name: 'ops',
      url: 'http://hooks.lan/a',
      secret: NOTIFY_SECRET_MASK,
      events: ['share.viewed'],
      enabled: false,
    });
    assert.ok(kept.ok);
    assert.equal(kept.input.secret, NOTIFY_SECRET_MASK);
  });
});

describe('SMTP form', () => {
  const stored = {
    host: 'smtp.example.com',
    port: 587,
    security: 'starttls' as const,
    username: 'u',
    password: NOTIFY_SECRET_MASK,
    from: 'Cubby <c@example.com>',
    enabled: true,
  };

  it('sends the settings with the port as a number and the mask kept', () => {
    const result = validateSmtpForm(smtpValuesOf(stored));
    assert.ok(result.ok);
    assert.equal(result.input.port, 587);
    assert.equal(result.input.password, NOTIFY_SECRET_MASK);
  });

  it('refuses a port out of range and a host without a sender; an empty host (email off) needs none', () => {
    const bad = validateSmtpForm({ ...smtpValuesOf(stored), port: '70000', from: ' ' });
    assert.deepEqual(!bad.ok && bad.errors, {
      port: 'admin.notifications.errors.portInvalid',
      from: 'admin.notifications.errors.fromRequired',
    });
    assert.ok(validateSmtpForm({ ...smtpValuesOf(stored), host: '', from: '' }).ok);
  });
});
