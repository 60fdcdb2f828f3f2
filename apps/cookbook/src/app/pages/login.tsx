/** Sign in: opts out of the default layout (docs/spec.md §2); back to `?redirect=` when it is a path of this site. */
import type { PageHead } from '@tern/runtime/shared/head';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { Link } from '@tern/ui/link';
import { LoginForm } from '../components/login-form.js';
import { safeRedirect } from '../components/safe-redirect.js';
import { LOGIN_FAILURE_PARAM, loginFailureMessage } from '../login-rules.js';
import { pageViewerOf } from '../components/viewer.js';
import { SITE_NAME } from '../site-name.js';
import { typedEmailOf, viewerOf } from '../viewer-services.js';

export const layout = false;

export const head: PageHead = { title: 'Sign in', robots: false };

export async function loader({ context, request }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const redirectTo = safeRedirect(query.get('redirect'));
  // Set by the answer to the plain form (server/auth/plain-forms.ts); an unknown code says nothing.
  const failure = loginFailureMessage(query.get(LOGIN_FAILURE_PARAM));
  const email = failure ? typedEmailOf(context, request) : '';
  return { redirectTo, failure, email, viewer: pageViewerOf(await viewerOf(context, request)) };
}

export default function LoginPage() {
  const { redirectTo, failure, email, viewer } = useLoaderData<typeof loader>();
  return (
    <main data-page="login" className="grid min-h-screen place-items-center px-4">
      <div className="w-full max-w-sm rounded-lg border border-default bg-elevated p-6 shadow-sm">
        <Link to="/" className="text-sm text-muted hover:underline focus-visible:outline-2 focus-visible:outline-primary">
          ← {SITE_NAME}
        </Link>
        <h1 className="mt-2 text-2xl font-bold">Sign in</h1>
        {viewer && (
          <p className="mt-2 text-sm text-muted" data-signed-in-as={viewer.email}>
            You are signed in as {viewer.name}. Signing in again replaces that session.
          </p>
        )}
        <LoginForm redirectTo={redirectTo} failure={failure} email={email} />
      </div>
    </main>
  );
}
