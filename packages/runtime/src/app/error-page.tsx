/**
 * The error page (docs/spec.md §2): the status, 'Page Not Found' for 404, 'Service unavailable, try
 * again' for 502-504 and 'Internal Server Error' for anything else, the message, and a way home. It is the route boundary of every page, so it
 * shows for server renders and client navigations alike; the standalone form serves the server
 * when a page could not render at all.
 */
import { useEffect, type ComponentType } from 'react';
import { useRouteError } from 'react-router';
import { errorPageTitle, toHttpError, type ErrorBody } from '@tern/shared/errors/errors';
import { applyHead, errorHead } from '../shared/head.js';
import { publicOrigin } from '../shared/app-config.js';
import { siteHead } from './site-head.js';
import type { SiteErrorPageProps } from '@tern/site/define-site-app';

type ErrorViewProps = Pick<ErrorBody, 'statusCode' | 'statusMessage' | 'message'>;

export function ErrorView({ statusCode, statusMessage, message }: ErrorViewProps) {
  const title = errorPageTitle(statusCode);
  return (
    <main data-error-page={statusCode} className="grid min-h-screen place-items-center px-4 text-center">
      <div>
        <h1 className="text-6xl font-bold">{statusCode}</h1>
        <h2 className="mt-2 text-xl font-semibold">{title}</h2>
        {statusMessage !== title && <p className="mt-4 text-muted">{statusMessage}</p>}
        {message !== statusMessage && <p className="mt-2 text-muted">{message}</p>}
        {/* A full load: whatever broke this page should not survive into the next. */}
        <a href="/" className="mt-6 inline-block text-primary underline">
          Go back home
        </a>
      </div>
    </main>
  );
}

/** The route boundary: the thrown error as the page, with the error's head. */
export function ErrorPage() {
  return <RouteErrorPage View={null} />;
}

/** The app route's boundary: the site's own error page when it has one (drawn inside the router, so it may use its layout and links). */
export function createErrorPage(View: ComponentType<SiteErrorPageProps> | undefined) {
  return View ? () => <RouteErrorPage View={View} /> : ErrorPage;
}

function RouteErrorPage({ View }: { View: ComponentType<SiteErrorPageProps> | null }) {
  const error = toHttpError(useRouteError());
  const title = errorPageTitle(error.statusCode);
  useEffect(() => {
    applyHead(document, errorHead(error.statusCode, title, publicOrigin(), window.location.pathname, siteHead));
  }, [error.statusCode, title]);
  const props = { statusCode: error.statusCode, statusMessage: error.statusMessage, message: error.message };
  return View ? <View {...props} title={title} /> : <ErrorView {...props} />;
}

export function StandaloneErrorPage({ error }: { error: ErrorBody }) {
  return <ErrorView statusCode={error.statusCode} statusMessage={error.statusMessage} message={error.message} />;
}
