/**
 * The audit log over HTTP, on SQLite and PostgreSQL: every security-relevant request of today
 * writes exactly one entry with its action, actor, address, target and outcome (a failed sign-in
 * and a forbidden call included, WebDAV's failed sign-ins too); no entry holds a secret the test
 * used; the admin's list filters and pages; the CSV export streams with a formula guard; the
 * retention setting purges old entries; nobody but an admin reads the log.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { AUDIT_ACTIONS } from '@cubby/shared';
import { Secret, TOTP } from 'otpauth';
import type { AuditLogTable } from '../src/db/schema.ts';
import { SoftAuthenticator } from './support/authenticator.ts';
import { DIALECTS } from './support/databases.ts';
import { ADMIN, apiKey, bearer, createTestApp, type TestApp } from './support/test-app.ts';

/** Every request comes through one trusted proxy that saw this address. */
const IP = '203.0.113.7';
const NEW_PASSWORD = 'a brand new passphrase 42';
const WRONG_PASSWORD = 'not-the-password-9137';
const PASTE_PASSWORD = 'paste-secret-5521';
const SHARE_PASSWORD = 'share-secret-8843';
const S3_SECRET = 'S3SECRETabcdefghijklmnopqrstuvwxyz0123';

interface Expected {
  action: string;
  actor_kind: string;
  actor_name: string | null;
  target?: string | null;
  outcome: 'success' | 'failure';
  status: number;
  details?: Record<string, unknown>;
}

for (const dialect of DIALECTS) {
  describe(`audit log (${dialect})`, () => {
    let t: TestApp;
    let token: string;
    let adminId: string;
    /** Every secret the test sends or receives: no column of any entry may hold one. */
    const secrets = [ADMIN.password, NEW_PASSWORD, WRONG_PASSWORD, PASTE_PASSWORD, SHARE_PASSWORD, S3_SECRET];

    before(async () => {
      t = await createTestApp(dialect, { TRUST_PROXY: '1' });
    });
    after(() => t.close());

    const headers = (extra: Record<string, string> = {}) => ({
      'X-Forwarded-For': IP,
      ...bearer(token),
      ...extra,
    });
    const call = (method: string, path: string, json?: unknown, extra?: Record<string, string>) =>
      t.json(path, { method, headers: headers(extra), ...(json !== undefined ? { json } : {}) });
    const rows = () =>
      t.database.db.kysely.selectFrom('audit_log').selectAll().orderBy('at').orderBy('id').execute();

    /** Runs one request and answers the one entry it wrote (failing when it wrote none or more). */
    async function onlyEntry(run: () => Promise<unknown>): Promise<AuditLogTable> {
      const before = new Set((await rows()).map((r) => r.id));
      await run();
      const added = (await rows()).filter((r) => !before.has(r.id));
      assert.equal(added.length, 1, `one new entry, got ${JSON.stringify(added)}`);
      return added[0]!;
    }

    function check(entry: AuditLogTable, expected: Expected) {
      assert.equal(entry.action, expected.action);
      assert.equal(entry.actor_kind, expected.actor_kind, expected.action);
      assert.equal(entry.actor_name, expected.actor_name, expected.action);
      if (expected.actor_kind === 'admin') assert.equal(entry.actor_id, adminId, expected.action);
      assert.equal(entry.ip, IP, expected.action);
      if (expected.target !== undefined) assert.equal(entry.target, expected.target, expected.action);
      assert.equal(entry.outcome, expected.outcome, expected.action);
      assert.equal(entry.status, expected.status, expected.action);
      if (expected.details) assert.deepEqual(JSON.parse(entry.details ?? 'null'), expected.details);
      assert.equal(entry.at, t.clock.now().toISOString());
    }

    it('writes one entry for every listed action, with who, where, what and how it ended', async () => {
      // Sign-ins.
      let entry = await onlyEntry(async () => {
        const res = await t.json('/api/admin/login', {
          method: 'POST',
          headers: { 'X-Forwarded-For': IP },
          json: ADMIN,
        });
        assert.equal(res.status, 200);
        token = res.body.data.token;
        secrets.push(token);
      });
      adminId = entry.actor_id!;
      assert.ok(adminId);
      check(entry, {
        action: 'auth.login',
        actor_kind: 'admin',
        actor_name: 'admin',
        outcome: 'success',
        status: 200,
      });

      entry = await onlyEntry(async () => {
        const res = await t.json('/api/admin/login', {
          method: 'POST',
          headers: { 'X-Forwarded-For': IP },
          json: { username: ' Admin ', password: WRONG_PASSWORD },
        });
        assert.equal(res.status, 401);
      });
      check(entry, {
        action: 'auth.login',
        actor_kind: 'guest',
        actor_name: 'Admin',
        outcome: 'failure',
        status: 401,
      });
      assert.equal(entry.actor_id, null);

      entry = await onlyEntry(async () => {
        const res = await t.request('/dav/', {
          method: 'PROPFIND',
          headers: {
            'X-Forwarded-For': IP,
            Depth: '0',
            Authorization: `Basic ${Buffer.from(`admin:${WRONG_PASSWORD}`).toString('base64')}`,
          },
        });
        assert.equal(res.status, 401);
      });
      check(entry, {
        action: 'auth.login',
        actor_kind: 'guest',
        actor_name: 'admin',
        outcome: 'failure',
        status: 401,
        details: { door: 'webdav' },
      });

      // API keys.
      let keyId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/admin/api-keys', {
          name: 'writer',
          text_permission: true,
          file_permission: true,
          expires_at: 'never',
        });
        assert.equal(res.status, 201);
        keyId = res.body.data.id;
        secrets.push(res.body.data.key);
      });
      const admin = { actor_kind: 'admin', actor_name: 'admin' } as const;
      check(entry, { action: 'apikey.create', ...admin, target: keyId, outcome: 'success', status: 201 });
      const keySecret = secrets.at(-1)!;
      entry = await onlyEntry(() => call('PUT', `/api/admin/api-keys/${keyId}`, { name: 'writer-2' }));
      check(entry, { action: 'apikey.update', ...admin, target: keyId, outcome: 'success', status: 200 });
      const doomed = await call('POST', '/api/admin/api-keys', { name: 'doomed', expires_at: 'never' });
      secrets.push(doomed.body.data.key);
      entry = await onlyEntry(() => call('DELETE', `/api/admin/api-keys/${doomed.body.data.id}`));
      check(entry, {
        action: 'apikey.delete',
        ...admin,
        target: doomed.body.data.id,
        outcome: 'success',
        status: 200,
      });

      // Settings: which changed, never their values; a key may not change them.
      entry = await onlyEntry(() =>
        call('PUT', '/api/admin/system-settings', { office_preview_enabled: true, audit_retention_days: 30 }),
      );
      check(entry, {
        action: 'settings.update',
        ...admin,
        outcome: 'success',
        status: 200,
        details: { keys: 'office_preview_enabled,audit_retention_days' },
      });
      entry = await onlyEntry(async () => {
        const res = await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: { 'X-Forwarded-For': IP, ...apiKey(keySecret) },
          json: { office_preview_enabled: false },
        });
        assert.equal(res.status, 403);
      });
      check(entry, {
        action: 'settings.update',
        actor_kind: 'apikey',
        actor_name: 'writer-2',
        outcome: 'failure',
        status: 403,
      });
      assert.equal(entry.actor_id, keyId);

      // Storage configs.
      let s3Id = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/s3-configs', {
          name: 'Ceph',
          provider_type: 'Other S3 Compatible',
          endpoint_url: 'http://127.0.0.1:9',
          bucket_name: 'cubby-bucket',
          region: 'us-east-1',
          access_key_id: 'AKIAAUDITTEST',
          secret_access_key: S3_SECRET,
          path_style: true,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        s3Id = res.body.data.id;
      });
      check(entry, { action: 'storage.create', ...admin, target: s3Id, outcome: 'success', status: 201 });
      entry = await onlyEntry(() =>
        call('PUT', `/api/s3-configs/${s3Id}`, { secret_access_key: `${S3_SECRET}2` }),
      );
      secrets.push(`${S3_SECRET}2`);
      check(entry, { action: 'storage.update', ...admin, target: s3Id, outcome: 'success', status: 200 });
      const local = await call('POST', '/api/s3-configs', {
        name: 'disk',
        provider_type: 'Local',
        root_path: `${t.database.dataDir}/audit-${randomUUID()}`,
      });
      const localId: string = local.body.data.id;
      entry = await onlyEntry(() => call('PUT', `/api/s3-configs/${localId}/set-default`));
      check(entry, {
        action: 'storage.set_default',
        ...admin,
        target: localId,
        outcome: 'success',
        status: 200,
      });
      entry = await onlyEntry(() => call('DELETE', `/api/s3-configs/${s3Id}`));
      check(entry, { action: 'storage.delete', ...admin, target: s3Id, outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('DELETE', '/api/s3-configs/no-such-config'));
      check(entry, {
        action: 'storage.delete',
        ...admin,
        target: 'no-such-config',
        outcome: 'failure',
        status: 404,
      });

      // Mounts.
      let mountId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/admin/mounts', {
          name: 'm',
          mount_path: '/m',
          storage_config_id: localId,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        mountId = res.body.data.id;
      });
      check(entry, { action: 'mount.create', ...admin, target: mountId, outcome: 'success', status: 201 });
      entry = await onlyEntry(() => call('PUT', `/api/admin/mounts/${mountId}`, { remark: 'team files' }));
      check(entry, { action: 'mount.update', ...admin, target: mountId, outcome: 'success', status: 200 });

      // Text shares.
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/paste', {
          content: 'hello',
          slug: 'audit-a',
          password: PASTE_PASSWORD,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      });
      check(entry, { action: 'paste.create', ...admin, target: 'audit-a', outcome: 'success', status: 201 });
      entry = await onlyEntry(() => call('PUT', '/api/admin/pastes/audit-a', { content: 'changed' }));
      check(entry, { action: 'paste.update', ...admin, target: 'audit-a', outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('DELETE', '/api/admin/pastes/audit-a'));
      check(entry, { action: 'paste.delete', ...admin, target: 'audit-a', outcome: 'success', status: 200 });
      const b = await call('POST', '/api/paste', { content: 'b' });
      entry = await onlyEntry(() => call('POST', `/api/admin/pastes/${b.body.data.id}/revoke`));
      check(entry, {
        action: 'paste.revoke',
        ...admin,
        target: b.body.data.id,
        outcome: 'success',
        status: 200,
      });
      entry = await onlyEntry(() =>
        call('POST', '/api/admin/pastes/batch-delete', { ids: [b.body.data.id] }),
      );
      check(entry, {
        action: 'paste.bulk_delete',
        ...admin,
        target: b.body.data.id,
        outcome: 'success',
        status: 200,
        details: { count: 1 },
      });
      entry = await onlyEntry(() => call('POST', '/api/admin/pastes/clear-expired'));
      check(entry, {
        action: 'paste.clear_expired',
        ...admin,
        outcome: 'success',
        status: 200,
        details: { count: 0 },
      });

      // File shares: a form upload, a raw upload, a URL upload and a share of a mount's file.
      let formId = '';
      let rawId = '';
      entry = await onlyEntry(async () => {
        const form = new FormData();
        form.append('slug', 'audit-form');
        form.append('password', SHARE_PASSWORD);
        form.append('file', new Blob(['form bytes']), 'form.txt');
        const res = await t.json('/api/upload', { method: 'POST', headers: headers(), body: form });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        formId = res.body.data.id;
      });
      check(entry, {
        action: 'share.create',
        ...admin,
        target: 'audit-form',
        outcome: 'success',
        status: 200,
      });
      entry = await onlyEntry(async () => {
        const res = await t.json('/api/upload-direct/raw.txt?slug=audit-raw', {
          method: 'PUT',
          headers: headers(),
          body: 'raw bytes',
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        rawId = res.body.data.id;
      });
      check(entry, {
        action: 'share.create',
        ...admin,
        target: 'audit-raw',
        outcome: 'success',
        status: 200,
      });
      const content = Buffer.from('from a url');
      const presigned = await call('POST', '/api/url/presign', {
        url: 'https://example.com/report.txt',
        metadata: { filename: 'report.txt', size: content.length },
      });
      assert.equal(presigned.status, 200, JSON.stringify(presigned.body));
      const uploadUrl = new URL(presigned.body.data.upload_url);
      const put = await t.request(uploadUrl.pathname + uploadUrl.search, {
        method: 'PUT',
        body: content,
        headers: presigned.body.data.upload_headers,
      });
      assert.equal(put.status, 200);
      entry = await onlyEntry(() =>
        call('POST', '/api/url/commit', { file_id: presigned.body.data.file_id, slug: 'audit-url' }),
      );
      check(entry, {
        action: 'share.create',
        ...admin,
        target: 'audit-url',
        outcome: 'success',
        status: 200,
      });

      const mkdir = await call('POST', '/api/admin/fs/mkdir', { path: '/m/docs' });
      assert.equal(mkdir.status, 200);
      for (const name of ['a.txt', 'b.txt', 'c.txt']) {
        const form = new FormData();
        form.append('path', '/m/docs');
        form.append('file', new Blob([name]), name);
        const res = await t.json('/api/admin/fs/upload', { method: 'POST', headers: headers(), body: form });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
      entry = await onlyEntry(() =>
        call('POST', '/api/admin/fs/share', { path: '/m/docs/a.txt', slug: 'audit-mount' }),
      );
      check(entry, {
        action: 'share.create',
        ...admin,
        target: 'audit-mount',
        outcome: 'success',
        status: 201,
        details: { source: 'mount' },
      });

      entry = await onlyEntry(() => call('PUT', `/api/admin/files/${formId}`, { remark: 'checked' }));
      check(entry, { action: 'share.update', ...admin, target: formId, outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('DELETE', `/api/admin/files/${formId}`));
      check(entry, { action: 'share.delete', ...admin, target: formId, outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('POST', `/api/admin/files/${rawId}/revoke`));
      check(entry, { action: 'share.revoke', ...admin, target: rawId, outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('POST', '/api/admin/files/batch-delete', { ids: [rawId] }));
      check(entry, {
        action: 'share.bulk_delete',
        ...admin,
        target: rawId,
        outcome: 'success',
        status: 200,
        details: { count: 1, object_failures: 0 },
      });

      // Bulk delete in a mount.
      entry = await onlyEntry(() =>
        call('POST', '/api/admin/fs/batch-remove', { paths: ['/m/docs/b.txt', '/m/docs/c.txt'] }),
      );
      check(entry, {
        action: 'fs.bulk_delete',
        ...admin,
        target: '/m/docs/b.txt,/m/docs/c.txt',
        outcome: 'success',
        status: 200,
        details: { removed: 2, failed: 0 },
      });

      // Upload requests: made, changed, uploaded into by a guest, revoked — named by id, never by
      // the token that opens them.
      let requestId = '';
      let requestToken = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/upload-requests', {
          target_path: '/m/docs',
          password: SHARE_PASSWORD,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        requestId = res.body.data.id;
        requestToken = res.body.data.token;
        secrets.push(requestToken);
      });
      check(entry, {
        action: 'upload_request.create',
        ...admin,
        target: requestId,
        outcome: 'success',
        status: 201,
      });
      entry = await onlyEntry(() => call('PUT', `/api/upload-requests/${requestToken}`, { max_files: 5 }));
      check(entry, {
        action: 'upload_request.update',
        ...admin,
        target: requestId,
        outcome: 'success',
        status: 200,
      });
      const opened = await t.json(`/api/public/upload-requests/${requestToken}/verify`, {
        method: 'POST',
        headers: { 'X-Forwarded-For': IP },
        json: { password: SHARE_PASSWORD },
      });
      secrets.push(opened.body.data.access_token);
      entry = await onlyEntry(() => {
        const form = new FormData();
        form.append('file', new Blob(['sent']), 'sent.txt');
        return t.json(`/api/public/upload-requests/${requestToken}/files`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': IP, 'X-Upload-Request-Token': opened.body.data.access_token },
          body: form,
        });
      });
      check(entry, {
        action: 'upload_request.upload',
        actor_kind: 'guest',
        actor_name: null,
        target: requestId,
        outcome: 'success',
        status: 201,
        details: { name: 'sent.txt', size: 4 },
      });
      entry = await onlyEntry(() => call('DELETE', `/api/upload-requests/${requestToken}`));
      check(entry, {
        action: 'upload_request.revoke',
        ...admin,
        target: requestId,
        outcome: 'success',
        status: 200,
      });

      // A folder share, changed and revoked (made by CloudPaste 1.9's create-share, a share.create).
      let folderSlug = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/fs/create-share', { path: '/m/docs' });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        folderSlug = res.body.data.slug;
      });
      check(entry, {
        action: 'share.create',
        ...admin,
        target: folderSlug,
        outcome: 'success',
        status: 201,
        details: { source: 'folder' },
      });
      entry = await onlyEntry(() =>
        call('PUT', `/api/folder-shares/${folderSlug}`, { password: SHARE_PASSWORD }),
      );
      check(entry, {
        action: 'folder_share.update',
        ...admin,
        target: folderSlug,
        outcome: 'success',
        status: 200,
      });
      entry = await onlyEntry(() => call('DELETE', `/api/folder-shares/${folderSlug}`));
      check(entry, {
        action: 'folder_share.revoke',
        ...admin,
        target: folderSlug,
        outcome: 'success',
        status: 200,
      });

      // A bundle of a mount file, changed and revoked.
      let bundleSlug = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/bundles', {
          items: [{ type: 'path', value: '/m/docs/a.txt' }],
          password: SHARE_PASSWORD,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        bundleSlug = res.body.data.slug;
      });
      check(entry, { action: 'bundle.create', ...admin, outcome: 'success', status: 201 });
      entry = await onlyEntry(() => call('PUT', `/api/bundles/${bundleSlug}`, { title: 'audited' }));
      check(entry, {
        action: 'bundle.update',
        ...admin,
        target: bundleSlug,
        outcome: 'success',
        status: 200,
      });
      entry = await onlyEntry(() => call('DELETE', `/api/bundles/${bundleSlug}`));
      check(entry, {
        action: 'bundle.revoke',
        ...admin,
        target: bundleSlug,
        outcome: 'success',
        status: 200,
      });

      // A folder rule with a password: added, changed, removed.
      let ruleId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/fs-meta/create', { path: '/m/docs', password: SHARE_PASSWORD });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ruleId = res.body.data.id;
      });
      check(entry, {
        action: 'fs_meta.create',
        ...admin,
        target: '/m/docs',
        outcome: 'success',
        status: 201,
      });
      entry = await onlyEntry(() => call('PUT', `/api/fs-meta/${ruleId}`, { header_markdown: '# Docs' }));
      check(entry, { action: 'fs_meta.update', ...admin, target: ruleId, outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('DELETE', `/api/fs-meta/${ruleId}`));
      check(entry, { action: 'fs_meta.delete', ...admin, target: ruleId, outcome: 'success', status: 200 });

      // A scheduled sync job: made, changed, dry-run, a cancel with nothing running (409), deleted.
      assert.equal((await call('POST', '/api/admin/fs/mkdir', { path: '/m/sync-from' })).status, 200);
      let jobId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/admin/scheduled/jobs', {
          name: 'audited',
          sourcePath: '/m/sync-from',
          targetPath: '/m/sync-to',
          scheduleType: 'interval',
          intervalSec: 3600,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        jobId = res.body.data.taskId;
      });
      check(entry, {
        action: 'scheduled_job.create',
        ...admin,
        target: jobId,
        outcome: 'success',
        status: 201,
        details: { source: '/m/sync-from', target: '/m/sync-to' },
      });
      const job = `/api/admin/scheduled/jobs/${jobId}`;
      entry = await onlyEntry(() => call('PUT', job, { deleteExtra: true }));
      check(entry, {
        action: 'scheduled_job.update',
        ...admin,
        target: jobId,
        outcome: 'success',
        status: 200,
      });
      entry = await onlyEntry(() => call('POST', `${job}/run`, { dryRun: true }));
      check(entry, {
        action: 'scheduled_job.run',
        ...admin,
        target: jobId,
        outcome: 'success',
        status: 200,
        details: { dry_run: 'true' },
      });
      entry = await onlyEntry(() => call('POST', `${job}/cancel`));
      check(entry, {
        action: 'scheduled_job.cancel',
        ...admin,
        target: jobId,
        outcome: 'failure',
        status: 409,
      });
      entry = await onlyEntry(() => call('DELETE', job));
      check(entry, {
        action: 'scheduled_job.delete',
        ...admin,
        target: jobId,
        outcome: 'success',
        status: 200,
      });

      // A paused webhook (nothing is delivered) and the email settings: the secrets never in an entry.
      const hookSecret = 'audit-webhook-secret-0123456789abcdef';
      secrets.push(hookSecret);
      let hookId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/admin/webhooks', {
          url: 'http://127.0.0.1:9/hook',
          secret: hookSecret,
          events: ['share.created'],
          enabled: false,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        hookId = res.body.data.id;
      });
      check(entry, { action: 'webhook.create', ...admin, outcome: 'success', status: 201 });
      entry = await onlyEntry(() => call('PUT', `/api/admin/webhooks/${hookId}`, { name: 'audited' }));
      check(entry, { action: 'webhook.update', ...admin, target: hookId, outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('DELETE', `/api/admin/webhooks/${hookId}`));
      check(entry, { action: 'webhook.delete', ...admin, target: hookId, outcome: 'success', status: 200 });
      entry = await onlyEntry(() =>
        call('PUT', '/api/admin/settings?group=smtp', {
          host: '127.0.0.1',
          port: 2525,
          security: 'none',
          username: 'cubby',
          password: S3_SECRET,
          from: 'cubby@example.com',
        }),
      );
      check(entry, {
        action: 'settings.smtp_update',
        ...admin,
        outcome: 'success',
        status: 200,
        details: { host: '127.0.0.1', enabled: 'true' },
      });

      entry = await onlyEntry(() => call('DELETE', `/api/admin/mounts/${mountId}`));
      check(entry, { action: 'mount.delete', ...admin, target: mountId, outcome: 'success', status: 200 });

      // People (docs/accounts.md): an invite made and accepted, a person added, changed and deleted,
      // their sessions and app passwords.
      let inviteToken = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/admin/invites', { role: 'member' });
        assert.equal(res.status, 201);
        inviteToken = res.body.data.token;
        secrets.push(inviteToken);
      });
      check(entry, {
        action: 'invite.create',
        ...admin,
        outcome: 'success',
        status: 201,
        details: { role: 'member' },
      });
      entry = await onlyEntry(() =>
        t.json(`/api/public/invites/${inviteToken}/accept`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': IP },
          json: { username: 'invited', password: PASTE_PASSWORD },
        }),
      );
      check(entry, {
        action: 'invite.accept',
        actor_kind: 'guest',
        actor_name: 'invited',
        outcome: 'success',
        status: 201,
        details: { role: 'member' },
      });
      let memberId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/admin/users', { username: 'member1', password: SHARE_PASSWORD });
        memberId = res.body.data.id;
      });
      check(entry, {
        action: 'user.create',
        ...admin,
        target: memberId,
        outcome: 'success',
        status: 201,
        details: { username: 'member1', role: 'member' },
      });
      entry = await onlyEntry(() =>
        call('PUT', `/api/admin/users/${memberId}`, { password: NEW_PASSWORD, quota_bytes: 5 }),
      );
      check(entry, {
        action: 'user.update',
        ...admin,
        target: memberId,
        outcome: 'success',
        status: 200,
        details: { changed: 'password,quota_bytes' },
      });
      const member = await t.json('/api/admin/login', {
        method: 'POST',
        headers: { 'X-Forwarded-For': IP },
        json: { username: 'member1', password: NEW_PASSWORD },
      });
      const memberToken = member.body.data.token as string;
      secrets.push(memberToken);
      const asMember = { name: 'member1', kind: 'member' };
      let appId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/auth/app-passwords', { name: 'laptop' }, bearer(memberToken));
        appId = res.body.data.id;
        secrets.push(res.body.data.password);
      });
      assert.equal(entry.actor_id, memberId);
      check(entry, {
        action: 'app_password.create',
        actor_kind: asMember.kind,
        actor_name: asMember.name,
        target: appId,
        outcome: 'success',
        status: 201,
        details: { name: 'laptop', access: 'write', path: null },
      });
      entry = await onlyEntry(() =>
        call('DELETE', `/api/auth/app-passwords/${appId}`, undefined, bearer(memberToken)),
      );
      check(entry, {
        action: 'app_password.revoke',
        actor_kind: 'member',
        actor_name: 'member1',
        target: appId,
        outcome: 'success',
        status: 200,
      });
      // Two-factor sign-in turned on, codes renewed, turned off: each a code from the app.
      const setup = await call('POST', '/api/auth/two-factor/totp/setup', undefined, bearer(memberToken));
      secrets.push(setup.body.data.secret);
      const totp = () =>
        new TOTP({ secret: Secret.fromBase32(setup.body.data.secret), digits: 6, period: 30 }).generate({
          timestamp: t.clock.now().getTime(),
        });
      const asMemberEntry = {
        actor_kind: 'member',
        actor_name: 'member1',
        outcome: 'success',
        status: 200,
      } as const;
      entry = await onlyEntry(async () => {
        const res = await call(
          'POST',
          '/api/auth/two-factor/totp/enable',
          { code: totp() },
          bearer(memberToken),
        );
        secrets.push(...(res.body.data.recovery_codes as string[]));
      });
      check(entry, { action: 'two_factor.enable', ...asMemberEntry });
      t.clock.advance(30_000);
      entry = await onlyEntry(async () => {
        const res = await call(
          'POST',
          '/api/auth/two-factor/recovery-codes',
          { otp: totp() },
          bearer(memberToken),
        );
        secrets.push(...(res.body.data.recovery_codes as string[]));
      });
      check(entry, { action: 'two_factor.recovery_codes', ...asMemberEntry });
      t.clock.advance(30_000);
      entry = await onlyEntry(() =>
        call('POST', '/api/auth/two-factor/totp/disable', { otp: totp() }, bearer(memberToken)),
      );
      check(entry, { action: 'two_factor.disable', ...asMemberEntry });
      // A passkey added, renamed, removed.
      const authenticator = new SoftAuthenticator();
      const passkeyOptions = await call(
        'POST',
        '/api/auth/passkeys/register/options',
        undefined,
        bearer(memberToken),
      );
      let passkeyId = '';
      entry = await onlyEntry(async () => {
        const res = await call(
          'POST',
          '/api/auth/passkeys/register',
          {
            challenge_id: passkeyOptions.body.data.challenge_id,
            response: authenticator.register(passkeyOptions.body.data.options),
            name: 'laptop',
          },
          bearer(memberToken),
        );
        passkeyId = res.body.data.id;
        secrets.push(...(res.body.data.recovery_codes as string[]));
      });
      check(entry, {
        action: 'passkey.create',
        ...asMemberEntry,
        status: 201,
        target: passkeyId,
        details: { name: 'laptop' },
      });
      entry = await onlyEntry(() =>
        call('PATCH', `/api/auth/passkeys/${passkeyId}`, { name: 'desk' }, bearer(memberToken)),
      );
      check(entry, { action: 'passkey.update', ...asMemberEntry, target: passkeyId });
      entry = await onlyEntry(() =>
        call('DELETE', `/api/auth/passkeys/${passkeyId}`, undefined, bearer(memberToken)),
      );
      check(entry, { action: 'passkey.delete', ...asMemberEntry, target: passkeyId });
      const sessions = await call('GET', '/api/auth/sessions', undefined, bearer(memberToken));
      const sessionId = sessions.body.data[0].id as string;
      entry = await onlyEntry(() => call('DELETE', '/api/auth/sessions', undefined, bearer(memberToken)));
      check(entry, {
        action: 'auth.sessions_end_others',
        actor_kind: 'member',
        actor_name: 'member1',
        outcome: 'success',
        status: 200,
        details: { ended: 0 },
      });
      entry = await onlyEntry(() =>
        call('DELETE', `/api/auth/sessions/${sessionId}`, undefined, bearer(memberToken)),
      );
      check(entry, {
        action: 'auth.session_end',
        actor_kind: 'member',
        actor_name: 'member1',
        target: sessionId,
        outcome: 'success',
        status: 200,
      });
      entry = await onlyEntry(() => call('DELETE', `/api/admin/users/${memberId}`, { shares: 'delete' }));
      check(entry, {
        action: 'user.delete',
        ...admin,
        target: memberId,
        outcome: 'success',
        status: 200,
        details: { shares: 'delete' },
      });
      let revokedInvite = '';
      await call('POST', '/api/admin/invites', {}).then((res) => (revokedInvite = res.body.data.id));
      entry = await onlyEntry(() => call('DELETE', `/api/admin/invites/${revokedInvite}`));
      check(entry, {
        action: 'invite.revoke',
        ...admin,
        target: revokedInvite,
        outcome: 'success',
        status: 200,
      });

      // Single sign-on providers (no provider is reached: only the record changes).
      let ssoId = '';
      entry = await onlyEntry(async () => {
        const res = await call('POST', '/api/admin/oidc-providers', {
          name: 'Team IdP',
          issuer: 'https://idp.example.com',
          client_id: 'cubby',
          client_secret: S3_SECRET,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ssoId = res.body.data.id;
      });
      check(entry, {
        action: 'sso.create',
        ...admin,
        target: ssoId,
        outcome: 'success',
        status: 201,
        details: { name: 'Team IdP' },
      });
      entry = await onlyEntry(() => call('PUT', `/api/admin/oidc-providers/${ssoId}`, { enabled: false }));
      check(entry, { action: 'sso.update', ...admin, target: ssoId, outcome: 'success', status: 200 });
      entry = await onlyEntry(() => call('DELETE', `/api/admin/oidc-providers/${ssoId}`));
      check(entry, { action: 'sso.delete', ...admin, target: ssoId, outcome: 'success', status: 200 });
      // The LDAP directory's settings: the bind password never in the entry (the last test looks).
      entry = await onlyEntry(() =>
        call('PUT', '/api/admin/ldap', {
          url: 'ldaps://ldap.example.com',
          bind_dn: 'cn=reader,dc=example,dc=com',
          bind_password: S3_SECRET,
          user_base: 'ou=people,dc=example,dc=com',
        }),
      );
      check(entry, {
        action: 'ldap.update',
        ...admin,
        outcome: 'success',
        status: 200,
        details: { enabled: 'false', url: 'ldaps://ldap.example.com' },
      });

      // The password: a wrong current one fails; a right one changes it (and ends every session).
      entry = await onlyEntry(() =>
        call('POST', '/api/admin/change-password', {
          currentPassword: WRONG_PASSWORD,
          newPassword: NEW_PASSWORD,
        }),
      );
      check(entry, { action: 'auth.change_password', ...admin, outcome: 'failure', status: 401 });
      entry = await onlyEntry(() =>
        call('POST', '/api/admin/change-password', {
          currentPassword: ADMIN.password,
          newPassword: NEW_PASSWORD,
        }),
      );
      check(entry, { action: 'auth.change_password', ...admin, outcome: 'success', status: 200 });

      const again = await t.json('/api/admin/login', {
        method: 'POST',
        headers: { 'X-Forwarded-For': IP },
        json: { username: ADMIN.username, password: NEW_PASSWORD },
      });
      token = again.body.data.token;
      secrets.push(token);
      entry = await onlyEntry(() => call('POST', '/api/admin/logout'));
      check(entry, { action: 'auth.logout', ...admin, outcome: 'success', status: 200 });

      // Every action the log lists was written by this walk.
      const seen = new Set((await rows()).map((r) => r.action));
      assert.deepEqual(
        AUDIT_ACTIONS.filter((action) => !seen.has(action)),
        [],
      );
    });

    it('keeps every secret out of every column of every entry', async () => {
      const all = await rows();
      assert.ok(all.length > 30, `${all.length} entries`);
      for (const row of all) {
        for (const [column, value] of Object.entries(row)) {
          for (const secret of secrets) {
            assert.ok(!String(value).includes(secret), `${row.action}.${column} holds a secret`);
          }
        }
      }
    });

    describe('reading the log', () => {
      let admin: Record<string, string>;
      before(async () => {
        const login = await t.json('/api/admin/login', {
          method: 'POST',
          json: { username: ADMIN.username, password: NEW_PASSWORD },
        });
        admin = bearer(login.body.data.token);
      });
      const list = async (query: string) => {
        const res = await t.json(`/api/admin/audit?${query}`, { headers: admin });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data as { items: AuditLogTable[]; total: number; page: number; limit: number };
      };

      it('filters by action, actor, outcome and time, newest first, a page at a time', async () => {
        const logins = await list('action=auth.login');
        assert.ok(logins.items.every((e) => e.action === 'auth.login'));
        assert.equal(logins.total, logins.items.length);
        // Newest first: the last sign-in (just above) leads, the WebDAV failure is below it.
        assert.equal(logins.items[0]!.outcome, 'success');
        assert.deepEqual(
          logins.items.map((e) => e.outcome),
          // The admin's last sign-in, member1's, …, the first.
          ['success', 'success', 'success', 'failure', 'failure', 'success'],
        );

        const failures = await list('outcome=failure');
        assert.ok(failures.total >= 5);
        assert.ok(failures.items.every((e) => e.outcome === 'failure'));
        const byKey = await list('actor=WRITER-2');
        assert.deepEqual(
          byKey.items.map((e) => [e.action, e.status]),
          [['settings.update', 403]],
        );
        const byId = await list(`actor=${byKey.items[0]!.actor_id}`);
        assert.equal(byId.total, 1);

        const all = await list('limit=200');
        const pages = [await list('limit=7&page=1'), await list('limit=7&page=2')];
        assert.equal(pages[0]!.total, all.total);
        assert.deepEqual(
          [...pages[0]!.items, ...pages[1]!.items].map((e) => e.id),
          all.items.slice(0, 14).map((e) => e.id),
        );
        assert.equal(pages[1]!.page, 2);
        assert.equal(pages[1]!.limit, 7);

        // From the oldest entry on: all; from now on: those written since the clock last moved.
        const oldest = all.items.at(-1)!.at;
        assert.equal((await list(`from=${encodeURIComponent(oldest)}`)).total, all.total);
        const now = t.clock.now().toISOString();
        const recent = await list(`from=${encodeURIComponent(now)}`);
        assert.ok(recent.total > 0 && recent.total < all.total);
        assert.ok(recent.items.every((e) => e.at >= now));
        assert.equal((await list('to=2025-12-31T00:00:00Z')).total, 0);

        const tooMany = await t.json('/api/admin/audit?limit=201', { headers: admin });
        assert.equal(tooMany.status, 400);
        const badTime = await t.json('/api/admin/audit?from=yesterday', {
          headers: { ...admin, 'X-Cubby-Lang': 'en' },
        });
        assert.equal(badTime.status, 400);
        assert.match(JSON.stringify(badTime.body), /Invalid time/);
      });

      it('exports CSV with the same filters, streamed, and defuses formulas', async () => {
        // A name a spreadsheet would run, tried at the sign-in.
        await t.json('/api/admin/login', {
          method: 'POST',
          json: { username: '=HYPERLINK("http://evil.example","x")', password: 'x' },
        });
        const res = await t.request('/api/admin/audit/export?action=auth.login', { headers: admin });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
        assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="audit-.*\.csv"/);
        const lines = (await res.text()).trimEnd().split('\r\n');
        assert.equal(lines[0], 'at,actor_kind,actor_id,actor_name,ip,action,target,outcome,status,details');
        assert.equal(lines.length, 1 + (await list('action=auth.login')).total);
        assert.ok(lines.slice(1).every((line) => line.includes(',auth.login,')));
        assert.ok(lines[1]!.includes(`"'=HYPERLINK(""http://evil.example"",""x"")"`), lines[1]);
        assert.ok(lines.some((line) => line.includes('"{""door"":""webdav""}"')));
      });

      it('hands a browser a short-lived export link that needs no credentials', async () => {
        const made = await t.json('/api/admin/audit/export-link', {
          method: 'POST',
          headers: admin,
          json: { action: 'auth.login', outcome: 'failure' },
        });
        assert.equal(made.status, 200, JSON.stringify(made.body));
        const link = new URL(made.body.data.url);
        assert.equal(link.pathname, '/api/audit/export');
        assert.match(link.search, /^\?token=v1\./);
        const url = link.pathname + link.search;
        const res = await t.request(url);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-disposition') ?? '', /^attachment;/);
        const lines = (await res.text()).trimEnd().split('\r\n');
        assert.equal(lines.length, 1 + (await list('action=auth.login&outcome=failure')).total);
        assert.ok(
          lines.slice(1).every((line) => line.includes(',auth.login,') && line.includes(',failure,')),
        );

        // The filters are signed: a changed token is refused, and so is a link past its 5 minutes.
        const token = new URL(url, 'http://x').searchParams.get('token')!;
        const [v, body, sig] = token.split('.');
        const widened = Buffer.from(
          JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), f: {} }),
        ).toString('base64url');
        assert.equal((await t.request(`/api/audit/export?token=${v}.${widened}.${sig}`)).status, 403);
        assert.equal((await t.request('/api/audit/export')).status, 403);
        t.clock.advance(301_000);
        const late = await t.json(url, { headers: { 'X-Cubby-Lang': 'en' } });
        assert.equal(late.status, 403);
        assert.match(late.body.message, /expired/);
      });

      it('streams an export longer than one page of the database', async () => {
        const repo = t.database.db.kysely;
        const at = '2025-06-01T00:00:00.000Z';
        const many = Array.from({ length: 1203 }, (_, i) => ({
          id: `bulk-${String(i).padStart(5, '0')}`,
          at,
          actor_kind: 'guest',
          actor_id: null,
          actor_name: null,
          ip: '198.51.100.1',
          action: 'test.bulk',
          target: `t${i}`,
          outcome: 'success' as const,
          status: 200,
          details: null,
        }));
        for (let i = 0; i < many.length; i += 300)
          await repo
            .insertInto('audit_log')
            .values(many.slice(i, i + 300))
            .execute();
        const res = await t.request('/api/admin/audit/export?action=test.bulk', { headers: admin });
        const lines = (await res.text()).trimEnd().split('\r\n').slice(1);
        assert.equal(lines.length, 1203);
        assert.equal(new Set(lines).size, 1203, 'no entry twice across pages');
      });

      it('purges entries past the retention setting and keeps the rest; 0 keeps all', async () => {
        const before = (await list('limit=1')).total;
        const old = (await list('action=test.bulk&limit=1')).total;
        assert.equal(old, 1203);
        // The bulk entries are from 2025-06, the rest from the test's today (2026-01-01).
        const settings = await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: admin,
          json: { audit_retention_days: 0 },
        });
        assert.equal(settings.status, 200);
        assert.equal(await t.services.audit.purge(), 0, '0 keeps every entry');
        await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: admin,
          json: { audit_retention_days: 30 },
        });
        assert.equal(await t.services.audit.purge(), 1203);
        assert.equal((await list('action=test.bulk')).total, 0);
        // Two settings changes were recorded meanwhile; nothing of today went.
        assert.equal((await list('limit=1')).total, before - 1203 + 2);

        const bad = await t.json('/api/admin/system-settings', {
          method: 'PUT',
          headers: admin,
          json: { audit_retention_days: -1 },
        });
        assert.equal(bad.status, 400);
      });

      it('answers 401 without credentials and 403 to a key, even one with every permission', async () => {
        const created = await t.json('/api/admin/api-keys', {
          method: 'POST',
          headers: admin,
          json: { name: 'all-perms', text_permission: true, file_permission: true, mount_permission: true },
        });
        const { key } = created.body.data as { key: string };
        for (const [method, path] of [
          ['GET', '/api/admin/audit'],
          ['GET', '/api/admin/audit/export'],
          ['POST', '/api/admin/audit/export-link'],
        ] as const) {
          const json = method === 'POST' ? {} : undefined;
          assert.equal((await t.json(path, { method, json })).status, 401, path);
          const res = await t.json(path, { method, json, headers: apiKey(key) });
          assert.equal(res.status, 403, path);
          assert.equal(res.body.error, 'FORBIDDEN');
        }
      });
    });
  });
}
