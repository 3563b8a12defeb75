// Sign-in: the token dialog, checking a pasted token before keeping it, and signing out; or the
// one-click link `npm start` prints (`/#token=…`), whose token is read here and dropped from the address bar.
import { ApiError, checkToken, normaliseToken, tokenStore } from './api.ts';
import type { Elements } from './elements.ts';

export interface SignIn {
  /** Shows the dialog, with the reason when the user was sent back to it. */
  open(error?: string): void;
  showSignedIn(): void;
}

export function createSignIn(ui: Elements): SignIn {
  function open(error?: string): void {
    ui.signin.hidden = false;
    ui.sessionState.textContent = 'Not signed in';
    ui.signOut.hidden = true;
    if (error) {
      ui.signinError.hidden = false;
      ui.signinError.textContent = error;
    } else {
      ui.signinError.hidden = true;
    }
    ui.token.focus();
  }

  function showSignedIn(): void {
    ui.signin.hidden = true;
    ui.sessionState.textContent = 'Signed in (token kept for this tab only)';
    ui.signOut.hidden = false;
  }

  return { open, showSignedIn };
}

/**
 * The token a sign-in link carries in the URL's fragment (`#token=…`, beside the view's parameters),
 * removed from the address bar and the history entry at once, before anything else reads the hash,
 * so it is neither shared with the link nor kept in history. A fragment is never sent to a server.
 */
export function takeTokenFromAddress(): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = params.get('token');
  if (token === null) return null;
  params.delete('token');
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  return normaliseToken(token) || null;
}

export interface SignInFlow {
  /** Checks a token and keeps it, as the dialog's submit does; a refused one opens the dialog saying why. */
  signInWith(token: string): Promise<void>;
}

/** `afterSignIn` runs once a checked token is stored, with the search box focused. */
export function wireSignIn(ui: Elements, signIn: SignIn, afterSignIn: () => void): SignInFlow {
  async function signInWith(token: string): Promise<void> {
    ui.signinSubmit.disabled = true;
    ui.signinSubmit.textContent = 'Checking…';
    try {
      await checkToken(token);
      tokenStore.set(token);
      ui.token.value = '';
      signIn.showSignedIn();
      ui.search.focus();
      afterSignIn();
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'expired') {
        signIn.open('That token has expired (HTTP 401). Create a new personal access token and paste it here.');
      } else if (e instanceof ApiError && e.kind === 'unauthenticated') {
        signIn.open(
          'That token was rejected (HTTP 401 Unauthorized): it is not a valid, current personal access token for this catalog. Check that you copied all of it, and that it has not expired or been revoked.',
        );
      } else {
        signIn.open(`Could not check the token: ${(e as Error).message}`);
      }
    } finally {
      ui.signinSubmit.disabled = false;
      ui.signinSubmit.textContent = 'Sign in';
    }
  }

  ui.signinForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const token = normaliseToken(ui.token.value);
    if (!token) {
      signIn.open('Paste a token first.');
      return;
    }
    void signInWith(token);
  });

  ui.signOut.addEventListener('click', () => {
    tokenStore.clear();
    signIn.open();
  });

  return { signInWith };
}
