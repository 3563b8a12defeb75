// What happened to the view, for the parts of the page that follow it without owning it (the impact
// list, the address bar): `loaded` after a neighbourhood load settles, `column` after the selected
// column changes, `failed` (with the wording) when a load failed and nothing is known. main.ts creates one and hands it to the emitters and the listeners.

type ViewEvent = 'loaded' | 'column' | 'failed';

export interface ViewEvents {
  on(event: ViewEvent, listener: (detail?: string) => void): void;
  emit(event: ViewEvent, detail?: string): void;
}

export function createViewEvents(): ViewEvents {
  const listeners = new Map<ViewEvent, Array<(detail?: string) => void>>();
  return {
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    emit(event, detail) {
      for (const l of listeners.get(event) ?? []) l(detail);
    },
  };
}
