/**
 * The upload page's announcements (see uploadAnnouncement) in a polite status region that is on
 * the page from the start: a region created together with its text is not announced.
 */
import { useTranslation } from 'react-i18next';
import { uploadAnnouncement } from '../upload-announcement.ts';
import { useUploadQueue } from '../upload-queue.ts';

export function UploadAnnouncer() {
  const { t } = useTranslation();
  const items = useUploadQueue((state) => state.items);
  return (
    <p role="status" aria-live="polite" className="sr-only" data-testid="upload-announcer">
      {uploadAnnouncement(items, (key, params) => t(key, params))}
    </p>
  );
}
