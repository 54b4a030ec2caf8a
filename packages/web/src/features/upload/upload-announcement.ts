/**
 * What the upload page tells screen readers about the uploads: the file being uploaded and its
 * progress in quarter steps (not every tick of the bar, which would drown everything else), then
 * how many uploads of the latest start succeeded and failed (the list keeps earlier ones until they
 * are cleared; they were announced when they ended). The same text twice is not announced again.
 */
import type { UploadItem } from './upload-queue.ts';

/** Progress is announced at 0, 25, 50 and 75 %. */
const STEP = 25;

type AnnouncementKey = 'upload.announce.progress' | 'upload.announce.done' | 'upload.announce.failed';
type Translate = (
  key: AnnouncementKey,
  params: { name?: string; percent?: number; count?: number },
) => string;

export function uploadAnnouncement(
  items: readonly Pick<UploadItem, 'name' | 'status' | 'percent' | 'batch'>[],
  t: Translate,
): string {
  const uploading = items.find((item) => item.status === 'uploading');
  if (uploading) {
    const percent = Math.floor(uploading.percent / STEP) * STEP;
    return t('upload.announce.progress', { name: uploading.name, percent });
  }
  const latest = items.reduce((batch, item) => Math.max(batch, item.batch), 0);
  const current = items.filter((item) => item.batch === latest);
  const done = current.filter((item) => item.status === 'success').length;
  const failed = current.filter((item) => item.status === 'error').length;
  const parts = [
    done > 0 ? t('upload.announce.done', { count: done }) : '',
    failed > 0 ? t('upload.announce.failed', { count: failed }) : '',
  ];
  return parts.filter(Boolean).join(' ');
}
