/** Extension → MIME type. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extensionOf, isOfficePreviewable, mimeFromFilename } from './mime.ts';

describe('mime', () => {
  it('maps common extensions case-insensitively, by the last dot', () => {
    assert.equal(mimeFromFilename('Photo.JPG'), 'image/jpeg');
    assert.equal(mimeFromFilename('clip.mp4'), 'video/mp4');
    assert.equal(mimeFromFilename('song.flac'), 'audio/flac');
    assert.equal(mimeFromFilename('paper.pdf'), 'application/pdf');
    assert.equal(mimeFromFilename('notes.md'), 'text/markdown');
    assert.equal(mimeFromFilename('main.ts'), 'text/typescript');
    assert.equal(
      mimeFromFilename('report.docx'),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    assert.equal(mimeFromFilename('backup.tar.gz'), 'application/gzip');
  });
  it('looks a name without a dot up whole, and falls back to octet-stream', () => {
    assert.equal(extensionOf('dir/Dockerfile'), 'dockerfile');
    assert.equal(mimeFromFilename('Dockerfile'), 'text/x-dockerfile');
    assert.equal(mimeFromFilename('blob.unknownext'), 'application/octet-stream');
    assert.equal(mimeFromFilename('constructor'), 'application/octet-stream');
  });
  it('knows the Office documents the online viewer renders, by extension only', () => {
    for (const name of ['a.doc', 'B.DOCX', 'c.docm', 'd.dot', 'e.dotx', 'f.xls', 'g.xlsx', 'h.xlsm']) {
      assert.equal(isOfficePreviewable(name), true, name);
    }
    for (const name of ['i.xlsb', 'j.ppt', 'k.pptx', 'l.pptm', 'm.pps', 'n.ppsx']) {
      assert.equal(isOfficePreviewable(name), true, name);
    }
    for (const name of ['a.odt', 'b.ods', 'c.odp', 'd.pdf', 'e.rtf', 'docx', 'f.docx.zip', 'g.txt']) {
      assert.equal(isOfficePreviewable(name), false, name);
    }
    assert.equal(
      mimeFromFilename('show.ppsx'),
      'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
    );
  });
});
