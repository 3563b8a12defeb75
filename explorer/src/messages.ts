// The dismissable message above the graph, and the one place API failures are worded for people.
import { ApiError, tokenStore } from './api.ts';
import type { Elements } from './elements.ts';
import { escapeXml } from './render.ts';

export interface Messages {
  show(text: string, kind?: 'error' | 'info'): void;
  clear(): void;
  /** `doing` completes "Could not …" / "You are not allowed to …". */
  reportError(e: unknown, doing: string): void;
  /** The same wording as a sentence, for an error state drawn in place of a result. */
  describe(e: unknown, doing: string): string;
}

export function createMessages(ui: Elements, signIn: { open(error?: string): void }): Messages {
  function show(text: string, kind: 'error' | 'info' = 'error'): void {
    ui.message.hidden = false;
    ui.message.className = `message ${kind === 'info' ? 'info' : ''}`;
    ui.message.innerHTML = `<p>${escapeXml(text)}</p><button type="button" aria-label="Dismiss message">×</button>`;
    ui.message.querySelector('button')!.addEventListener('click', clear);
  }

  function clear(): void {
    ui.message.hidden = true;
    ui.message.textContent = '';
  }

  function describe(e: unknown, doing: string): string {
    if (e instanceof ApiError && e.kind === 'forbidden') return `You are not allowed to ${doing}: ${e.message}`;
    return `Could not ${doing}: ${(e as Error).message}`;
  }

  /** A 401 means the token died mid-session: back to sign-in with the reason, not a message. */
  function reportError(e: unknown, doing: string): void {
    if (e instanceof ApiError && (e.kind === 'unauthenticated' || e.kind === 'expired')) {
      tokenStore.clear();
      signIn.open(e.message);
      return;
    }
    if (e instanceof ApiError) {
      const prefix = e.kind === 'forbidden' ? `You are not allowed to ${doing}` : `Could not ${doing}`;
      show(`${prefix}: ${e.message}`);
      return;
    }
    show(`Could not ${doing}: ${(e as Error).message}`);
  }

  return { show, clear, reportError, describe };
}
