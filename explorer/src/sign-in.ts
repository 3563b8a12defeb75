// Sign-in: the token dialog, checking a pasted token before keeping it, and signing out.
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

/** `afterSignIn` runs once a checked token is stored, with the search box focused. */
export function wireSignIn(ui: Elements, signIn: SignIn, afterSignIn: () => void): void {
  ui.signinForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const token = normaliseToken(ui.token.value);
    if (!token) {
      signIn.open('Paste a token first.');
      return;
    }
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
        signIn.open('That token was rejected (HTTP 401 Unauthorized): it is not a valid, current personal access token for this catalog. Check that you copied all of it, and that it has not expired or been revoked.');
      } else {
        signIn.open(`Could not check the token: ${(e as Error).message}`);
      }
    } finally {
      ui.signinSubmit.disabled = false;
      ui.signinSubmit.textContent = 'Sign in';
    }
  });

  ui.signOut.addEventListener('click', () => {
    tokenStore.clear();
    signIn.open();
  });
}
