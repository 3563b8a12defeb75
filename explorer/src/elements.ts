// Typed handles on the elements of index.html the page's code drives, looked up once at start-up.

/** A missing id is a broken index.html: fail at start-up rather than on first use. */
function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from index.html`);
  return el as T;
}

/** Every handle, typed by what it is; `Elements` is its type, so the list is written once. */
export function findElements() {
  return {
    signin: byId('signin'),
    signinForm: byId<HTMLFormElement>('signin-form'),
    token: byId<HTMLTextAreaElement>('token'),
    signinError: byId('signin-error'),
    signinSubmit: byId<HTMLButtonElement>('signin-submit'),
    sessionState: byId('session-state'),
    signOut: byId<HTMLButtonElement>('sign-out'),
    searchForm: byId<HTMLFormElement>('search-form'),
    search: byId<HTMLInputElement>('search'),
    searchResults: byId('search-results'),
    status: byId('status'),
    message: byId('message'),
    canvas: byId('canvas'),
    empty: byId('empty'),
    host: byId('graph-host'),
    dirUp: byId<HTMLInputElement>('dir-upstream'),
    dirDown: byId<HTMLInputElement>('dir-downstream'),
    columnsToggle: byId<HTMLInputElement>('columns-toggle'),
    pageSize: byId<HTMLSelectElement>('page-size'),
    timeFrom: byId<HTMLInputElement>('time-from'),
    timeTo: byId<HTMLInputElement>('time-to'),
    degreeInputs: [...document.querySelectorAll<HTMLInputElement>('input[name="degree"]')],
    typeFilter: byId('type-filter'),
    platformFilter: byId('platform-filter'),
    degreeCounts: byId('degree-counts'),
    legendTypes: byId('legend-types'),
    zoomIn: byId('zoom-in'),
    zoomOut: byId('zoom-out'),
    zoomFit: byId('zoom-fit'),
    // The impact list (impact-list.ts).
    impact: byId('impact'),
    impactDirectionInputs: [...document.querySelectorAll<HTMLInputElement>('input[name="impact-direction"]')],
    impactSubject: byId('impact-subject'),
    impactSummary: byId('impact-summary'),
    impactFacets: byId('impact-facets'),
    impactExport: byId<HTMLButtonElement>('impact-export'),
    impactProgressBox: byId('impact-progress-box'),
    impactProgress: byId<HTMLProgressElement>('impact-progress'),
    impactProgressText: byId('impact-progress-text'),
    impactCancel: byId<HTMLButtonElement>('impact-cancel'),
    impactExportStatus: byId('impact-export-status'),
    impactCaption: byId('impact-caption'),
    impactHead: byId('impact-head'),
    impactRows: byId('impact-rows'),
    impactMore: byId<HTMLButtonElement>('impact-more'),
    partialNote: byId('partial-note'),
    minimap: byId('minimap'),
    // The details sheet (details.ts).
    details: byId('details'),
    detailsTitle: byId('details-title'),
    detailsBody: byId('details-body'),
    detailsClose: byId<HTMLButtonElement>('details-close'),
    // The side panels and their toggles (panels.ts).
    controls: byId('controls'),
    controlsToggle: byId<HTMLButtonElement>('controls-toggle'),
    controlsClose: byId<HTMLButtonElement>('controls-close'),
    impactToggle: byId<HTMLButtonElement>('impact-toggle'),
    startLists: byId('start-lists'),
  };
}

export type Elements = ReturnType<typeof findElements>;
