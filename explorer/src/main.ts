// The explorer page's composition root: builds the state and the page's parts, wires them to each
// other and to the document, then opens sign-in, the start page or the entity the URL names.
import './style.css';
import { tokenStore } from './api.ts';
import { createColumnTracer } from './column-trace.ts';
import { createDetails } from './details.ts';
import { createDrawing } from './drawing.ts';
import { findElements } from './elements.ts';
import { renderLegend, wireFilterControls } from './filters.ts';
import { createImpactList } from './impact-list.ts';
import { wireInteraction } from './interaction.ts';
import { createMessages } from './messages.ts';
import { createNavigation, wireHistory } from './navigation.ts';
import { wirePanels } from './panels.ts';
import { wireSearch } from './search.ts';
import { createSignIn, takeTokenFromAddress, wireSignIn } from './sign-in.ts';
import { createStartPage } from './start-page.ts';
import { createState } from './state.ts';
import { createStatus } from './status.ts';
import { createViewport } from './viewport.ts';
import { createViewEvents } from './view-events.ts';

// First of all, before the view is read from the hash: a sign-in link's token leaves the address bar.
const linkedToken = takeTokenFromAddress();
const ui = findElements();
const state = createState();
const events = createViewEvents();

const signIn = createSignIn(ui);
const messages = createMessages(ui, signIn);
const status = createStatus(state, ui);
const viewport = createViewport(state, ui);
const drawing = createDrawing(state, ui, { messages, status, viewport });
// The tracer reads the graph's filter from navigation, which opens the columns a link names.
const tracer = createColumnTracer(state, { drawing, status, messages, events, filter: () => navigation.filter() });
const navigation = createNavigation(state, ui, { messages, status, drawing, events, tracer });
const details = createDetails(state, ui, { messages, navigateTo: navigation.navigateTo, filter: () => navigation.filter() });
const startPage = createStartPage(ui, { messages, navigateTo: navigation.navigateTo });

/** What a signed-in page shows first: the entity the address names, else the start page. */
function openView(): void {
  if (location.hash.length > 1) void navigation.reloadView();
  else void startPage.load();
}

// Signing in again (after an expired token) reloads the view that was open, so nothing stale stays.
const signInFlow = wireSignIn(ui, signIn, openView);
// A sign-in link pasted into a tab already open on the page changes only the hash. Registered before
// the history's listener, this one takes the token and stops that listener: signing in opens the view.
window.addEventListener('hashchange', (ev) => {
  const token = takeTokenFromAddress();
  if (!token) return;
  ev.stopImmediatePropagation();
  void signInFlow.signInWith(token);
});
wireSearch(ui, { messages, navigateTo: navigation.navigateTo });
wireHistory(navigation);
wireInteraction(state, ui, { navigation, drawing, viewport, tracer, details });
wireFilterControls(state, ui, { reload: navigation.reload });
wirePanels(ui, () => viewport.applyZoom());
const impactList = createImpactList(state, ui, { navigateTo: navigation.navigateTo, messages });
events.on('loaded', impactList.refresh);
events.on('column', impactList.refresh);
events.on('failed', (text) => impactList.showError(text ?? 'The lineage did not load.'));

renderLegend(ui);
if (linkedToken) {
  void signInFlow.signInWith(linkedToken);
} else if (tokenStore.get()) {
  signIn.showSignedIn();
  openView();
} else {
  signIn.open();
}
