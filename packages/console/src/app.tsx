import { AppShell } from './app-shell.js';
import { SignInPage } from './pages/sign-in/sign-in-page.js';
import { SessionProvider, useSession } from './session/session-context.js';

function SignedInOrNot() {
  const { session } = useSession();
  return session === null ? <SignInPage /> : <AppShell />;
}

/** The console: the sign-in page until a credential is stored for this tab, then the shell with its pages. */
export function App() {
  return (
    <SessionProvider>
      <SignedInOrNot />
    </SessionProvider>
  );
}
