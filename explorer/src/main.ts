// The explorer page's composition root: builds the state and the page's parts, wires them to each
// other and to the document, then opens sign-in or the entity the URL names.
import './style.css';
import { tokenStore } from './api.ts';
import { createDrawing } from './drawing.ts';
import { findElements } from './elements.ts';
import { renderLegend, wireFilterControls } from './filters.ts';
import { wireInteraction } from './interaction.ts';
import { createMessages } from './messages.ts';
import { createNavigation, wireHistory } from './navigation.ts';
import { wireSearch } from './search.ts';
import { createSignIn, wireSignIn } from './sign-in.ts';
import { createState } from './state.ts';
import { createStatus } from './status.ts';
import { createViewport } from './viewport.ts';
import { createViewEvents } from './view-events.ts';

const ui = findElements();
const state = createState();
const events = createViewEvents();

const signIn = createSignIn(ui);
const messages = createMessages(ui, signIn);
const status = createStatus(state, ui);
const viewport = createViewport(state, ui);
const drawing = createDrawing(state, ui, { messages, status, viewport });
const navigation = createNavigation(state, ui, { messages, status, drawing, events });

wireSignIn(ui, signIn, () => {
  if (!state.graph) void navigation.routeFromHash();
});
wireSearch(ui, { messages, navigateTo: navigation.navigateTo });
wireHistory(navigation);
wireInteraction(state, ui, { navigation, status, viewport, events });
wireFilterControls(state, ui, { reload: navigation.reload, redraw: drawing.redraw });

renderLegend(ui);
if (tokenStore.get()) {
  signIn.showSignedIn();
  void navigation.routeFromHash();
} else {
  signIn.open();
}
