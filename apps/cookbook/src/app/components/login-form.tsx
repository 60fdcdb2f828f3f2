/**
 * Email and password, checked in the browser with the server's rules and messages; the server's
 * answer (field errors, wrong password, too many attempts) shows inline and in a toast. Before
 * hydration, or without JavaScript, the form posts itself to the same route, which answers with a
 * redirect (server/auth/plain-forms.ts); `failure` is what that answer brought back.
 */
import { toast } from '@tern/ui/toast';
import { navigate } from '@tern/runtime/shared/navigate';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { LOGIN_ROUTE } from '../account-routes.js';
import { checkLoginFields, type LoginFieldErrors } from '../login-rules.js';

/**
 * The accounts client (and the HTTP client under it) loads when the visitor starts on the form,
 * not with the page: it is not part of the first load's JavaScript budget.
 */
const accounts = () => import('./accounts-client.js');
const warmAccounts = () => void accounts().catch(() => undefined);

interface FieldProps {
  name: 'email' | 'password';
  label: string;
  type: string;
  autoComplete: string;
  error: string | undefined;
  inputRef: RefObject<HTMLInputElement | null>;
  defaultValue?: string;
}

function Field({ name, label, type, autoComplete, error, inputRef, defaultValue }: FieldProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={`${id}-input`} className="block text-sm font-medium">
        {label}
      </label>
      <input
        ref={inputRef}
        id={`${id}-input`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="mt-1 w-full rounded-md border border-default bg-default px-3 py-2 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary aria-[invalid=true]:border-error"
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-error" data-field-error={name}>
          {error}
        </p>
      )}
    </div>
  );
}

interface LoginFormProps {
  redirectTo: string;
  /** Set when the plain form's sign-in failed: the message, and the email typed. */
  failure?: string | null;
  email?: string;
}

export function LoginForm({ redirectTo, failure = null, email: typedEmail = '' }: LoginFormProps) {
  const [errors, setErrors] = useState<LoginFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(failure);
  const [busy, setBusy] = useState(false);
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);

  function refuse(fields: LoginFieldErrors, message: string): void {
    setErrors(fields);
    setFormError(Object.keys(fields).length > 0 ? null : message);
    toast.add({ title: 'Sign-in failed', description: message, color: 'error', icon: 'lucide:circle-x' });
    (fields.email ? email : password).current?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const values = { email: email.current?.value ?? '', password: password.current?.value ?? '' };
    const local = checkLoginFields(values.email, values.password);
    if (Object.keys(local).length > 0) return refuse(local, Object.values(local)[0]!);
    setBusy(true);
    const client = await accounts().catch(() => null);
    if (!client) {
      setBusy(false);
      return refuse({}, 'Could not reach the server. Check your connection and try again.');
    }
    const result = await client.signIn(values.email, values.password);
    setBusy(false);
    if (!result.ok) return refuse(client.fieldErrorsOf(result.error), result.error.message);
    setErrors({});
    setFormError(null);
    toast.add({ title: `Signed in as ${result.body.user.name}`, color: 'success', icon: 'lucide:circle-check' });
    await navigate(redirectTo, { replace: true });
  }

  return (
    <form
      method="post"
      action={LOGIN_ROUTE}
      noValidate
      onSubmit={(event) => void submit(event)}
      onFocus={warmAccounts}
      onPointerDown={warmAccounts}
      className="mt-6 space-y-4"
      aria-describedby={formError ? 'login-form-error' : undefined}
    >
      <input type="hidden" name="redirect" value={redirectTo} />
      <Field name="email" label="Email" type="email" autoComplete="email" error={errors.email} inputRef={email} defaultValue={typedEmail} />
      <Field name="password" label="Password" type="password" autoComplete="current-password" error={errors.password} inputRef={password} />
      <div role="alert" id="login-form-error" className="text-sm text-error empty:hidden" data-form-error="">
        {formError}
      </div>
      <button type="submit" className="ui-button w-full justify-center" disabled={busy} aria-busy={busy || undefined}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
