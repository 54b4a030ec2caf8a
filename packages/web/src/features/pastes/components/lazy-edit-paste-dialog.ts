/**
 * The edit dialog as a lazy chunk that comes with its texts (the `pastes` section), so the paste
 * view loads either only for a creator who opens it.
 */
import { lazy } from 'react';
import { withSections } from '../../../lib/i18n/index.ts';

export const EditPasteDialog = lazy(() => withSections(import('./edit-paste-dialog.tsx'), ['pastes']));
