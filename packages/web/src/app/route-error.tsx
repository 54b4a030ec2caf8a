/**
 * Shown when a screen fails to render or its code cannot be loaded: `RouteErrorBoundary` around the
 * routes catches the error and shows `RouteError` in place of the page. A navigation (e.g. the back
 * button) tries the new location again. A screen whose code fails to load while offline shows the
 * offline fallback page instead. The page says which it was: code that could not be loaded (the
 * connection, or a new version) or an error in the page itself, which no connection check fixes.
 */
import { Component, lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Button, buttonClasses } from '../components/button.tsx';
import { Card } from '../components/card.tsx';
import { paths } from '../config/paths.ts';
import { usePageTitle } from '../lib/i18n/use-page-title.ts';
import { isOffline, serverReachable } from '../lib/offline/network-status.ts';

// Precached by the service worker (vite.config.ts), so it loads offline.
const OfflineFallback = lazy(() => import('./offline-fallback.tsx'));

/** Whether an error is a code chunk that failed to load (the browsers' wordings). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|importing a module script failed|error loading dynamically|failed to fetch|load failed/i.test(
    message,
  );
}

/** Why the page could not be shown: its code did not load, or it failed in the browser. */
export type RouteErrorCause = 'load' | 'local';

export function RouteError({ cause }: { cause: RouteErrorCause }) {
  const { t } = useTranslation();
  usePageTitle(t('titles.error'));
  // Shown instead of the whole layout, so it is the page's main landmark itself.
  return (
    <main className="mx-auto max-w-lg px-4 py-16" data-testid={`route-error-${cause}`}>
      <Card
        title={t('routeError.heading')}
        as="h1"
        description={cause === 'load' ? t('routeError.description') : t('routeError.localDescription')}
      >
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => window.location.reload()}>{t('routeError.retry')}</Button>
          <Link to={paths.home.getHref()} className={buttonClasses('secondary')} reloadDocument>
            {t('routeError.home')}
          </Link>
        </div>
      </Card>
    </main>
  );
}

interface BoundaryProps {
  /** The history entry shown; a new one clears the error. */
  locationKey: string;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  /** What failed, when the page is not offline. */
  cause: RouteErrorCause;
  /**
   * The screen's code could not be loaded while offline: the offline fallback page is shown.
   * Undefined while the server is being asked (a chunk failed although the browser says online).
   */
  offline?: boolean | undefined;
  locationKey: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, cause: 'load', locationKey: this.props.locationKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    if (!isChunkLoadError(error)) return { failed: true, cause: 'local', offline: false };
    return { failed: true, cause: 'load', offline: isOffline() ? true : undefined };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.locationKey === state.locationKey
      ? null
      : { failed: false, offline: false, locationKey: props.locationKey };
  }

  override componentDidCatch(): void {
    if (this.state.offline !== undefined) return;
    // A chunk that failed while the browser says online: offline after all, or a new version's
    // files replaced this one's. The server's answer (or silence) tells which page to show.
    const at = this.state.locationKey;
    void serverReachable().then((reachable) => {
      if (this.state.locationKey === at) this.setState({ offline: !reachable });
    });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.state.offline === undefined) return null;
    return this.state.offline ? (
      <Suspense fallback={null}>
        <OfflineFallback />
      </Suspense>
    ) : (
      <RouteError cause={this.state.cause} />
    );
  }
}

/** Catches errors of the screens below (render errors, chunks that fail to load). */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { key } = useLocation();
  return <ErrorBoundary locationKey={key}>{children}</ErrorBoundary>;
}
