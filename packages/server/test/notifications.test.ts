/**
 * Notifications (issue 24, docs/api.md "Notifications"): webhooks signed with HMAC-SHA256 over
 * "<timestamp>.<body>", retried from the database with backoff (the test moves the clock; no
 * sleeps) and given up after six attempts, their delivery log, refusal of internal addresses
 * without connecting, secrets never answered nor logged; email through SMTP settings (password
 * masked) to a real SMTP server (smtp-server) on 127.0.0.1: a test message, "upload received" and
 * "share expiring soon". Both databases.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { DIALECTS } from './support/databases.ts';
import { bearer, createTestApp, mountLocalDisk, type TestApp } from './support/test-app.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RETRY_DELAYS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR];
const SMTP_USER = 'mailer';
const SMTP_PASSWORD = `smtp-${randomBytes(6).toString('hex')}`;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers each request with the next status of `statuses`. */
async function receiver() {
  const received: Received[] = [];
  let statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(statuses.shift() ?? 200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer(...next: number[]) {
      statuses = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A listener that must never be reached: any connection fails the test. */
async function trap() {
  const failures: string[] = [];
  const server = net.createServer((socket) => {
    failures.push(`connected from ${socket.remoteAddress}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    assertUntouched: () => assert.deepEqual(failures, [], 'a refused address was connected to'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Mail {
  from: string;
  to: string[];
  raw: string;
  user: string | undefined;
}

/** A real SMTP server (smtp-server) on 127.0.0.1: plain, with optional AUTH over the loopback. */
async function mailServer() {
  const mails: Mail[] = [];
  const logins: Array<{ username: string; password: string }> = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A message's Subject, its MIME encoded words (RFC 2047, Q encoding as nodemailer writes them) decoded. */
function subjectOf(raw: string): string | undefined {
  const folded = raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)?.[1]?.replace(/\r?\n[ \t]/g, ' ');
  return folded?.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
    Buffer.from(
      text
        .replace(/_/g, ' ')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8'),
  );
}

for (const dialect of DIALECTS) {
  describe(`notifications (${dialect})`, () => {
    let t: TestApp;
    let admin: Record<string, string>;
    let hooks: Awaited<ReturnType<typeof receiver>>;
    let smtp: Awaited<ReturnType<typeof mailServer>>;
    const secret = `whsec-${randomBytes(12).toString('hex')}`;

    before(async () => {
      t = await createTestApp(dialect, { PUBLIC_URL: 'https://cubby.example' });
      admin = bearer(await t.adminToken());
      hooks = await receiver();
      smtp = await mailServer();
      // The receiver is on the loopback: the admin's allowlist lets exactly its port through.
      const allow = await t.json('/api/admin/system-settings', {
        method: 'PUT',
        headers: admin,
        json: { url_allowlist: `127.0.0.1:${hooks.port}` },
      });
      assert.equal(allow.status, 200);
    });
    after(async () => {
      await t.services.notifications.settled();
      await hooks.close();
      await smtp.close();
      await t.close();
    });
    beforeEach(async () => {
      // Tests move the clock by hours: a fresh session each time.
      admin = bearer(await t.adminToken());
      // Each test has its webhooks to itself.
      for (const hook of (await t.json('/api/admin/webhooks', { headers: admin })).body.data) {
        await t.json(`/api/admin/webhooks/${hook.id}`, { method: 'DELETE', headers: admin });
      }
      hooks.received.length = 0;
      hooks.answer();
    });

    const addWebhook = async (
      url: string,
      events = ['share.created', 'share.viewed', 'share.expired', 'share.uploaded'],
    ) => {
      const res = await t.json('/api/admin/webhooks', {
        method: 'POST',
        headers: admin,
        json: { name: 'ops', url, secret, events },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    const deliveries = async (id: string) => {
      const res = await t.json(`/api/admin/webhooks/${id}/deliveries`, { headers: admin });
      assert.equal(res.status, 200);
      return res.body.data as Array<{
        status: string;
        attempts: number;
        event: string;
        last_status: number | null;
        last_error: string | null;
        next_attempt_at: string | null;
      }>;
    };
    const paste = async (body: Record<string, unknown> = {}) => {
      const res = await t.json('/api/paste', {
        method: 'POST',
        headers: admin,
        json: { content: 'hi', ...body },
      });
      assert.equal(res.status, 201);
      await t.services.notifications.settled();
      return res.body.data as { id: string; slug: string };
    };
    const runDue = () => t.services.notifications.runDue();

    it('signs each delivery: HMAC-SHA256 of "<timestamp>.<body>" under the secret, which is never answered nor logged', async () => {
      const id = await addWebhook(hooks.url());
      const created = await paste({ remark: 'signed' });
      assert.equal(hooks.received.length, 1);
      const [got] = hooks.received;
      assert.equal(got!.headers['content-type'], 'application/json');
      assert.equal(got!.headers['x-cubby-event'], 'share.created');
      const timestamp = String(got!.headers['x-cubby-timestamp']);
      assert.equal(timestamp, String(Math.floor(t.clock.now().getTime() / 1000)));
      const expected = createHmac('sha256', secret).update(`${timestamp}.${got!.body}`).digest('hex');
      assert.equal(got!.headers['x-cubby-signature'], `sha256=${expected}`);
      // The same body under another key, or another timestamp, does not verify.
      const forged = createHmac('sha256', 'another secret!!')
        .update(`${timestamp}.${got!.body}`)
        .digest('hex');
      assert.notEqual(got!.headers['x-cubby-signature'], `sha256=${forged}`);
      const event = JSON.parse(got!.body);
      assert.equal(event.event, 'share.created');
      assert.deepEqual(event.share, {
        kind: 'paste',
        id: created.id,
        slug: created.slug,
        name: 'signed',
        url: `https://cubby.example/paste/${created.slug}`,
      });
      const [delivery] = await deliveries(id);
      assert.equal(delivery!.status, 'delivered');
      assert.equal(delivery!.attempts, 1);
      assert.equal(delivery!.last_status, 200);

      // Masked everywhere it is answered; the mask sent back keeps it (the next delivery still verifies).
      const listed = await t.json('/api/admin/webhooks', { headers: admin });
      assert.equal(listed.body.data[0].secret, '********');
      const kept = await t.json(`/api/admin/webhooks/${id}`, {
        method: 'PUT',
        headers: admin,
        json: { secret: '********', name: 'renamed' },
      });
      assert.equal(kept.status, 200);
      assert.equal(kept.body.data.secret, '********');
      const tested = await t.json(`/api/admin/webhooks/${id}/test`, { method: 'POST', headers: admin });
      assert.equal(tested.body.data.status, 'delivered');
      const last = hooks.received.at(-1)!;
      assert.equal(last.headers['x-cubby-event'], 'webhook.test');
      const ts = String(last.headers['x-cubby-timestamp']);
      assert.equal(
        last.headers['x-cubby-signature'],
        `sha256=${createHmac('sha256', secret).update(`${ts}.${last.body}`).digest('hex')}`,
      );
      for (const answer of [
        listed.body,
        kept.body,
        tested.body,
        (await t.json(`/api/admin/webhooks/${id}/deliveries`, { headers: admin })).body,
      ]) {
        assert.ok(!JSON.stringify(answer).includes(secret));
      }
      assert.ok(!t.logLines.some((line) => line.includes(secret)), 'the secret is in the log');
      const stored = await t.database.db.kysely
        .selectFrom('webhooks')
        .select('secret')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.ok(!stored.secret.includes(secret) && stored.secret.startsWith('v1:'), 'sealed at rest');
      // A secret too short is refused, in the user's language.
      const short = await t.json('/api/admin/webhooks', {
        method: 'POST',
        headers: { ...admin, 'X-Cubby-Lang': 'en' },
        json: { url: hooks.url(), secret: 'short', events: ['share.created'] },
      });
      assert.equal(short.status, 400);
      assert.match(short.body.message, /16 to 200 characters/);
    });

    it('retries after a 500 with backoff from the database: 1 min later, not sooner', async () => {
      const id = await addWebhook(hooks.url(), ['share.created']);
      hooks.answer(500);
      await paste();
      let [delivery] = await deliveries(id);
      assert.equal(delivery!.status, 'pending');
      assert.equal(delivery!.attempts, 1);
      assert.equal(delivery!.last_status, 500);
      assert.equal(delivery!.next_attempt_at, new Date(t.clock.now().getTime() + MINUTE).toISOString());
      assert.equal(await runDue(), 0, 'not due yet');
      t.clock.advance(MINUTE - 1000);
      assert.equal(await runDue(), 0, 'still not due');
      t.clock.advance(1000);
      assert.equal(await runDue(), 1);
      [delivery] = await deliveries(id);
      assert.equal(delivery!.status, 'delivered');
      assert.equal(delivery!.attempts, 2);
      assert.equal(hooks.received.length, 2);
      assert.equal(hooks.received[0]!.body, hooks.received[1]!.body, 'the same body, byte for byte');
    });

    it('gives up after six attempts (1 min, 5 min, 30 min, 2 h, 6 h apart), and the log says so', async () => {
      const id = await addWebhook(hooks.url(), ['share.created']);
      hooks.answer(...new Array<number>(10).fill(503));
      await paste();
      for (const [i, delay] of RETRY_DELAYS.entries()) {
        t.clock.advance(delay - 1000);
        assert.equal(await runDue(), 0, `attempt ${i + 2} early`);
        t.clock.advance(1000);
        assert.equal(await runDue(), 1, `attempt ${i + 2}`);
      }
      const [delivery] = await deliveries(id);
      assert.equal(delivery!.status, 'failed');
      assert.equal(delivery!.attempts, 6);
      assert.equal(delivery!.last_status, 503);
      assert.equal(delivery!.last_error, 'HTTP 503');
      assert.equal(delivery!.next_attempt_at, null);
      t.clock.advance(24 * HOUR);
      assert.equal(await runDue(), 0);
      assert.equal(hooks.received.length, 6);
    });

    it('refuses private, loopback and metadata addresses without connecting, and does not retry them', async () => {
      const closed = await trap();
      try {
        const targets = [
          `http://127.0.0.1:${closed.port}/hook`, // loopback, a port the allowlist does not name
          `http://[::ffff:127.0.0.1]:${closed.port}/hook`,
          `http://localhost:${closed.port}/hook`,
          'http://169.254.169.254/latest/meta-data/',
          'http://10.1.2.3/hook',
        ];
        const ids = [];
        for (const url of targets) ids.push(await addWebhook(url, ['share.created']));
        await paste();
        for (const [i, id] of ids.entries()) {
          const [delivery] = await deliveries(id);
          assert.equal(delivery!.status, 'failed', targets[i]);
          assert.equal(delivery!.attempts, 1);
          assert.match(delivery!.last_error ?? '', /^BLOCKED_ADDRESS/, targets[i]);
        }
        t.clock.advance(HOUR);
        assert.equal(await runDue(), 0);
        closed.assertUntouched();
      } finally {
        await closed.close();
      }
    });

    it('announces file shares created and viewed, and shares that expired (once)', async () => {
      await addWebhook(hooks.url());
      const form = new FormData();
      form.set('file', new Blob(['bytes']), 'report.txt');
      form.set('expires_in', '1');
      const up = await t.json('/api/upload', { method: 'POST', headers: admin, body: form });
      assert.equal(up.status, 200);
      const slug = up.body.data.slug as string;
      assert.equal((await t.request(`/api/file-download/${slug}`)).status, 200);
      await t.services.notifications.settled();
      const events = () =>
        hooks.received.map(
          (r) => JSON.parse(r.body) as { event: string; share: { slug: string; name: string } },
        );
      assert.deepEqual(
        events().map((e) => [e.event, e.share.slug, e.share.name]),
        [
          ['share.created', slug, 'report.txt'],
          ['share.viewed', slug, 'report.txt'],
        ],
      );
      t.clock.advance(2 * HOUR);
      assert.ok((await t.services.notifications.scanExpiries()) >= 1);
      assert.equal(await t.services.notifications.scanExpiries(), 0, 'once');
      await t.services.notifications.settled();
      assert.deepEqual(
        events()
          .filter((e) => e.event === 'share.expired')
          .map((e) => e.share.slug),
        [slug],
      );
    });

    it('SMTP settings: password sealed and masked (the mask keeps it); a test email arrives with its subject and recipient', async () => {
      const put = await t.json('/api/admin/settings/group/smtp', {
        method: 'PUT',
        headers: admin,
        json: {
          host: '127.0.0.1',
          port: smtp.port,
          security: 'none',
          username: SMTP_USER,
          password: SMTP_PASSWORD,
          from: 'cubby@example.test',
        },
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.data.password, '********');
      assert.equal(put.body.data.enabled, true);
      const read = await t.json('/api/admin/settings?group=smtp', { headers: admin });
      assert.equal(read.body.data.password, '********');
      const stored = await t.database.db.kysely
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'smtp_password')
        .executeTakeFirstOrThrow();
      assert.ok(stored.value.startsWith('v1:') && !stored.value.includes(SMTP_PASSWORD));
      // Sent back masked with another change, the stored password stays.
      const again = await t.json('/api/admin/settings?group=smtp', {
        method: 'PUT',
        headers: admin,
        json: { ...read.body.data, from: 'Cubby <cubby@example.test>' },
      });
      assert.equal(again.status, 200);

      const sent = await t.json('/api/admin/smtp/test', {
        method: 'POST',
        headers: admin,
        json: { to: 'ops@example.test' },
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const mail = smtp.mails.at(-1)!;
      assert.deepEqual(mail.to, ['ops@example.test']);
      assert.equal(mail.from, 'cubby@example.test');
      assert.equal(mail.user, SMTP_USER, 'signed in with the stored password');
      assert.equal(subjectOf(mail.raw), 'Cubby: test email');
      assert.ok(!t.logLines.some((line) => line.includes(SMTP_PASSWORD)));
      for (const body of [put.body, read.body, again.body, sent.body])
        assert.ok(!JSON.stringify(body).includes(SMTP_PASSWORD));
    });

    it('a file uploaded into a mount that publishes a share announces it (share.created)', async () => {
      await addWebhook(hooks.url(), ['share.created']);
      await mountLocalDisk(t, admin, '/drop');
      const form = new FormData();
      form.append('path', '/drop');
      form.append('file', new Blob(['minutes']), 'minutes.txt');
      const up = await t.json('/api/admin/fs/upload', { method: 'POST', headers: admin, body: form });
      assert.equal(up.status, 200, JSON.stringify(up.body));
      await t.services.notifications.settled();
      const bodies = hooks.received.map(
        (r) => JSON.parse(r.body) as { event: string; share: { kind: string; name: string } },
      );
      assert.deepEqual(
        bodies.map((b) => [b.event, b.share.kind, b.share.name]),
        [['share.created', 'file', 'minutes.txt']],
      );
    });

    it('a file received through an upload request is announced: webhook share.uploaded and the email name the file', async () => {
      await t.database.db.kysely
        .updateTable('users')
        .set({ email: 'admin@example.test' })
        .where('role', '=', 'admin')
        .execute();
      await addWebhook(hooks.url(), ['share.uploaded']);
      await mountLocalDisk(t, admin, '/inbox');
      const made = await t.json('/api/upload-requests', {
        method: 'POST',
        headers: admin,
        json: { target_path: '/inbox', message: 'Scans for the audit' },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const before = smtp.mails.length;
      const form = new FormData();
      form.append('file', new Blob(['scan']), 'receipt.pdf');
      const sent = await t.json(`/api/public/upload-requests/${made.body.data.token}/files`, {
        method: 'POST',
        body: form,
      });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      await t.services.notifications.settled();
      const bodies = hooks.received.map(
        (r) => JSON.parse(r.body) as { event: string; share: { kind: string }; data?: { name?: string } },
      );
      assert.deepEqual(
        bodies.map((b) => [b.event, b.share.kind, b.data?.name]),
        [['share.uploaded', 'upload-request', 'receipt.pdf']],
      );
      const mail = smtp.mails[before]!;
      assert.deepEqual(mail.to, ['admin@example.test']);
      assert.equal(subjectOf(mail.raw), 'Cubby: upload received — receipt.pdf');
      assert.match(mail.raw, /\/admin\/upload-requests/);
    });

    it('emails the owner (or the admins) when an upload arrives and when a share expires within a day', async () => {
      await t.database.db.kysely
        .updateTable('users')
        .set({ email: 'admin@example.test' })
        .where('role', '=', 'admin')
        .execute();
      const before = smtp.mails.length;
      const uploaded = await paste({ remark: 'drop box' });
      t.services.notifications.notify({
        event: 'share.uploaded',
        share: { kind: 'paste', id: uploaded.id, slug: uploaded.slug, name: 'holiday.jpg' },
      });
      await t.services.notifications.settled();
      const upload = smtp.mails[before]!;
      assert.deepEqual(upload.to, ['admin@example.test']);
      assert.equal(subjectOf(upload.raw), 'Cubby: upload received — holiday.jpg');

      const soon = await paste({
        remark: 'quarterly',
        expiresAt: new Date(t.clock.now().getTime() + 12 * HOUR).toISOString(),
      });
      await paste({
        remark: 'later',
        expiresAt: new Date(t.clock.now().getTime() + 3 * 24 * HOUR).toISOString(),
      });
      await t.services.notifications.scanExpiries();
      const expiring = smtp.mails.filter((m) => /expiring soon/.test(subjectOf(m.raw) ?? ''));
      assert.equal(expiring.length, 1);
      assert.match(expiring[0]!.raw, new RegExp(`/paste/${soon.slug}`));
      assert.deepEqual(expiring[0]!.to, ['admin@example.test']);
      await t.services.notifications.scanExpiries();
      assert.equal(smtp.mails.filter((m) => /expiring soon/.test(subjectOf(m.raw) ?? '')).length, 1, 'once');
    });
  });
}
