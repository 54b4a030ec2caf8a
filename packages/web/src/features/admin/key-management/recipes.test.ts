/**
 * The key recipes: the curl commands are run by a real `sh` (with `curl` replaced by a function that
 * prints its arguments), so a key or address full of shell characters must still reach curl as
 * exactly one intended argument each; the ShareX uploaders are valid JSON whose fields read back,
 * through ShareX's escaping rules, as the address and key they were built from.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import {
  curlPaste,
  curlUpload,
  curlUploadDirect,
  rcloneWebdav,
  sharexFileUploader,
  sharexLiteral,
  sharexTextUploader,
  shellQuote,
  sxcuFilename,
  sxcuText,
  webdavUrl,
} from './recipes.ts';

/** The argument lists `curl` is called with when `sh` runs `script`. */
function curlArgs(script: string): string[][] {
  // Each argument ends with NUL, each call with \001 (arguments may hold newlines).
  const out = execFileSync('sh', ['-c', `curl() { printf '%s\\0' "$@"; printf '\\001'; }\n${script}`], {
    encoding: 'utf8',
  });
  return out
    .split('\u0001')
    .slice(0, -1)
    .map((call) => call.split('\0').slice(0, -1));
}

const plain = { origin: 'https://cubby.example', key: 'k_1234567890abcdef' };
const nasty = {
  origin: "https://o'brien.example:8443/a b$(touch /tmp/cubby-pwned)",
  key: `k'ey"$HOME\`id\`;|&\\ *`,
};

test('shell quoting keeps any text one word, unexpanded', () => {
  for (const value of ["it's", '$HOME', '`id`', 'a\nb', '\\', '', "''", '*']) {
    assert.deepEqual(curlArgs(`curl ${shellQuote(value)}`), [[value]], JSON.stringify(value));
  }
});

test('the form upload command sends the key and the file to /api/upload', () => {
  assert.deepEqual(curlArgs(curlUpload(plain)), [
    [
      '-H',
      'Authorization: ApiKey k_1234567890abcdef',
      '-F',
      'file=@photo.png',
      'https://cubby.example/api/upload',
    ],
  ]);
  assert.deepEqual(curlArgs(curlUpload(nasty)), [
    ['-H', `Authorization: ApiKey ${nasty.key}`, '-F', 'file=@photo.png', `${nasty.origin}/api/upload`],
  ]);
  assert.match(curlUpload(plain), /^curl .* \\\n {2}-F /, 'one option per line');
});

test('the raw upload command PUTs the file to /api/upload-direct/<encoded name>', () => {
  assert.deepEqual(curlArgs(curlUploadDirect(nasty, 'my report (1).pdf')), [
    [
      '-T',
      'my report (1).pdf',
      '-H',
      `Authorization: ApiKey ${nasty.key}`,
      `${nasty.origin}/api/upload-direct/my%20report%20(1).pdf`,
    ],
  ]);
});

test('the paste command posts valid JSON with the text, whatever it holds', () => {
  const text = `It's "quoted" — 你好 $HOME\n`;
  const [args] = curlArgs(curlPaste(nasty, text));
  assert.deepEqual(args!.slice(0, 4), [
    '-H',
    `Authorization: ApiKey ${nasty.key}`,
    '-H',
    'Content-Type: application/json',
  ]);
  assert.equal(args![4], '-d');
  assert.deepEqual(JSON.parse(args![5]!), { content: text, format: 'text' });
  assert.equal(args![6], `${nasty.origin}/api/paste`);
});

/**
 * Reads a ShareX syntax field as ShareX 14 does: `\` takes the next character literally; `{name:a|b}`
 * calls a function (given here); outside a function an unescaped `}` or `|` ends the text.
 */
function sharexRead(text: string, functions: Record<string, (args: string[]) => string> = {}): string {
  let i = 0;
  const literal = (stops: string): string => {
    let out = '';
    while (i < text.length && !stops.includes(text[i]!)) {
      const c = text[i++]!;
      if (c === '\\' && i < text.length) out += text[i++];
      else if (c === '{') out += call();
      else out += c;
    }
    return out;
  };
  const call = (): string => {
    const name = literal(':|}');
    const args: string[] = [];
    while (text[i] === ':' || text[i] === '|') {
      i++;
      args.push(literal('|}'));
    }
    assert.equal(text[i], '}', `unclosed function in ${text}`);
    i++;
    const fn = functions[name];
    assert.ok(fn, `unknown ShareX function ${name} in ${text}`);
    return fn(args);
  };
  const out = literal('}|');
  assert.equal(i, text.length, `ShareX would stop reading ${JSON.stringify(text)} at ${i}`);
  return out;
}

const fromJson = (answer: unknown) => ({
  json: ([path]: string[]) =>
    String(path!.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], answer)),
});

test('the file uploader: multipart to /api/upload with the key; the link is the share page', () => {
  const uploader = sharexFileUploader(plain);
  assert.deepEqual(JSON.parse(sxcuText(uploader)), uploader);
  assert.equal(uploader.Version, '14.0.0');
  assert.equal(uploader.DestinationType, 'ImageUploader, FileUploader');
  assert.equal(uploader.RequestMethod, 'POST');
  assert.equal(uploader.Body, 'MultipartFormData');
  assert.equal(uploader.FileFormName, 'file');
  assert.equal(sharexRead(uploader.RequestURL), 'https://cubby.example/api/upload');
  assert.deepEqual(Object.keys(uploader.Headers), ['Authorization']);
  assert.equal(sharexRead(uploader.Headers.Authorization!), 'ApiKey k_1234567890abcdef');
  // What POST /api/upload answers (toFileShare): data.url is the page, relative.
  const answer = { data: { slug: 'q3', url: '/file/q3' }, message: 'ok' };
  assert.equal(sharexRead(uploader.URL, fromJson(answer)), 'https://cubby.example/file/q3');
  assert.equal(sharexRead(uploader.ErrorMessage, fromJson({ message: 'File too large' })), 'File too large');
});

test('the text uploader: JSON to /api/paste; the link is the paste page', () => {
  const uploader = sharexTextUploader(plain);
  assert.deepEqual(JSON.parse(sxcuText(uploader)), uploader);
  assert.equal(uploader.DestinationType, 'TextUploader');
  assert.equal(uploader.Body, 'JSON');
  assert.equal(uploader.FileFormName, undefined);
  assert.equal(sharexRead(uploader.RequestURL), 'https://cubby.example/api/paste');
  // ShareX puts the text into Data JSON-encoded: any text gives valid JSON.
  const text = 'line "one"\n\\ 你好 {input}';
  const body = uploader.Data!.replace('{input}', JSON.stringify(text).slice(1, -1));
  assert.deepEqual(JSON.parse(body), { content: text, format: 'text' });
  const answer = { data: { slug: 'AbC123' }, slug: 'AbC123' };
  assert.equal(sharexRead(uploader.URL, fromJson(answer)), 'https://cubby.example/paste/AbC123');
});

test("ShareX's special characters in the address or key are escaped, and read back as given", () => {
  const odd = { origin: 'https://h.example/{a}|b\\c', key: 'k{}|\\' };
  for (const uploader of [sharexFileUploader(odd), sharexTextUploader(odd)]) {
    assert.equal(sharexRead(uploader.RequestURL).startsWith(`${odd.origin}/api/`), true);
    assert.equal(sharexRead(uploader.Headers.Authorization!), `ApiKey ${odd.key}`);
    assert.ok(
      sharexRead(uploader.URL, fromJson({ data: { url: '/file/x', slug: 'x' } })).startsWith(odd.origin),
    );
  }
  assert.equal(sharexLiteral('a{b}c|d\\e'), 'a\\{b\\}c\\|d\\\\e');
  // Unescaped, ShareX would cut the address short: the check above can fail.
  assert.throws(() => sharexRead('https://h/a|b'));
});

test('the .sxcu file name says which server and which uploader', () => {
  assert.equal(sxcuFilename('https://cubby.example:8443', 'files'), 'cubby-cubby.example-8443-files.sxcu');
  assert.equal(sxcuFilename('http://[::1]:8790', 'text'), 'cubby-1-8790-text.sxcu');
});

test('the WebDAV address names the base path, each segment encoded', () => {
  assert.equal(webdavUrl(plain, '/'), 'https://cubby.example/dav/');
  assert.equal(
    webdavUrl(plain, '/photos/报告 #1'),
    'https://cubby.example/dav/photos/%E6%8A%A5%E5%91%8A%20%231/',
  );
});

test('the rclone recipe gives rclone the address, the key as user and its obscured password', () => {
  // `rclone` replaced by a function that prints its arguments, as curl above; `rclone obscure` by
  // one that marks what it was given.
  const fake = `rclone() { if [ "$1" = obscure ]; then printf 'OBSCURED[%s]' "$2"; return; fi; printf '%s\\0' "$@"; printf '\\001'; }`;
  const calls = execFileSync('sh', ['-c', `${fake}\n${rcloneWebdav(nasty, '/team/a b')}`], {
    encoding: 'utf8',
  })
    .split('\u0001')
    .slice(0, -1)
    .map((call) => call.split('\0').slice(0, -1));
  const [create, list] = calls;
  assert.deepEqual(create!.slice(0, 4), ['config', 'create', 'cubby-o-brien.example-8443', 'webdav']);
  assert.ok(create!.includes(`url=${nasty.origin}/dav`));
  assert.ok(create!.includes(`user=${nasty.key}`));
  assert.ok(create!.includes(`pass=OBSCURED[${nasty.key}]`), JSON.stringify(create));
  assert.ok(create!.includes('vendor=other'));
  assert.deepEqual(list, ['lsf', 'cubby-o-brien.example-8443:team/a b']);
});

test('the rclone recipe of an app password logs in as its person, with the app password obscured', () => {
  const fake = `rclone() { if [ "$1" = obscure ]; then printf 'OBSCURED[%s]' "$2"; return; fi; printf '%s\\0' "$@"; printf '\\001'; }`;
  const [create] = execFileSync('sh', ['-c', `${fake}\n${rcloneWebdav(nasty, '/', "o'neil")}`], {
    encoding: 'utf8',
  })
    .split('\u0001')
    .map((call) => call.split('\0').slice(0, -1));
  assert.ok(create!.includes("user=o'neil"), JSON.stringify(create));
  assert.ok(create!.includes(`pass=OBSCURED[${nasty.key}]`));
});
