/** Which preview a shared file gets, by type and name. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeLanguage, previewKind } from './preview-kind.ts';

test('media and PDF by their type', () => {
  assert.equal(previewKind('image/png', 'a.png'), 'image');
  assert.equal(previewKind('image/svg+xml', 'logo.svg'), 'image');
  assert.equal(previewKind('video/mp4', 'clip.mp4'), 'video');
  assert.equal(previewKind('audio/mpeg', 'song.mp3'), 'audio');
  assert.equal(previewKind('application/pdf', 'doc.pdf'), 'pdf');
  assert.equal(previewKind('image/png; charset=binary', 'a.png'), 'image');
});

test('Markdown, HTML and text or code', () => {
  assert.equal(previewKind('text/markdown', 'README.md'), 'markdown');
  assert.equal(previewKind('text/html', 'page.html'), 'html');
  assert.equal(previewKind('text/plain', 'notes.txt'), 'text');
  assert.equal(previewKind('application/json', 'data.json'), 'text');
  assert.equal(previewKind('text/x-python', 'main.py'), 'text');
  assert.equal(previewKind('application/ld+json', 'x.jsonld'), 'text');
});

test('a vague or clashing type defers to the name', () => {
  assert.equal(previewKind('application/octet-stream', 'README.md'), 'markdown');
  assert.equal(previewKind('', 'photo.jpg'), 'image');
  assert.equal(previewKind(null, 'index.html'), 'html');
  // A generic table calls .ts MPEG video; here it is TypeScript.
  assert.equal(previewKind('video/mp2t', 'app.ts'), 'text');
});

test('Office documents, unplayable media and binaries get a download card', () => {
  assert.equal(
    previewKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx'),
    'office',
  );
  assert.equal(previewKind('application/vnd.ms-excel', 'sheet.xls'), 'office');
  assert.equal(previewKind('video/x-matroska', 'movie.mkv'), 'other');
  assert.equal(previewKind('application/zip', 'a.zip'), 'other');
  assert.equal(previewKind('application/octet-stream', 'blob'), 'other');
  assert.equal(previewKind('image/tiff', 'scan.tif'), 'other');
});

test('the code language is the extension when it looks like one', () => {
  assert.equal(codeLanguage('main.ts'), 'ts');
  assert.equal(codeLanguage('Makefile'), 'makefile');
  assert.equal(codeLanguage('weird.<x>'), null);
});
