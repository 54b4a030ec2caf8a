/**
 * The views a file share's page shows. Cubby's public info counts no view (README, "Expiry and
 * view limits": the request that delivers bytes counts), so its `views` are those before this
 * visit; the page's preview or download is one more (its links carry one token, which counts once).
 * The page includes that view, as CloudPaste's info answer (which counts it) does, and says when it
 * is the last one allowed. A copy shown offline makes no view.
 */
import type { FileShare } from '@cubby/shared';

export interface VisitViews {
  /** Views with this visit's. */
  views: number;
  /** 0 = unlimited. */
  max: number;
  /** This visit's view is the last one allowed. */
  last: boolean;
}

export function visitViews(file: Pick<FileShare, 'views' | 'max_views'>, online: boolean): VisitViews {
  const views = file.views + (online ? 1 : 0);
  return { views, max: file.max_views, last: online && file.max_views > 0 && views >= file.max_views };
}
