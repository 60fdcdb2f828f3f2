/** Sign in: opts out of the default layout (SPEC §2). */
import { Link } from 'react-router';
import { SITE_NAME, type PageHead } from '../../runtime/head.js';

export const layout = false;

export const head: PageHead = { title: 'Sign in', robots: false };

export default function LoginPage() {
  return (
    <main data-page="login" className="grid min-h-screen place-items-center px-4">
      <div className="w-full max-w-sm rounded-lg border border-default p-6">
        <Link to="/" className="text-sm text-muted">
          {SITE_NAME}
        </Link>
        <h1 className="mt-2 text-2xl font-bold">Sign in</h1>
        <form method="post" action="/login" className="mt-6 space-y-4">
          <label className="block">
            <span className="text-sm font-medium">Email</span>
            <input name="email" type="email" autoComplete="email" required className="mt-1 w-full rounded border border-default bg-page px-3 py-2" />
          </label>
          <label className="block">
            <span className="text-sm font-medium">Password</span>
            <input name="password" type="password" autoComplete="current-password" required className="mt-1 w-full rounded border border-default bg-page px-3 py-2" />
          </label>
          <button type="submit" className="ui-button w-full">
            Sign in
          </button>
        </form>
      </div>
    </main>
  );
}
