// Route-level code splitting without preact/compat: `lazyPage(() => import(...))` is a component that
// loads its module on first render (a separate chunk Vite emits), shows "Loading…" meanwhile, and
// renders the page from then on without waiting. The pages rarely visited (Settings, Library, Notes,
// Tasks) stay out of the initial bundle this way.
import type { ComponentType, FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import style from "./style.module.css";

export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): FunctionComponent<P> {
  return lazyComponent(load, false);
}

/**
 * A part of a page loaded on its first render, the same way: nothing shows while it loads (a moment,
 * for a part that adds to what is already there, such as a System message's actions), a short line if
 * it cannot be loaded.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): FunctionComponent<P> {
  return lazyComponent(load, true);
}

function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, inline: boolean): FunctionComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const start = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        loading = undefined; // a later visit tries again (e.g. after a deploy replaced the chunk)
        throw error;
      },
    );
    return loading;
  };

  return function LazyPage(props: P) {
    const [, setReady] = useState(false);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      start().then(
        () => live && setReady(true),
        () => live && setFailed(true),
      );
      return () => {
        live = false;
      };
    }, []);
    const Page = loaded;
    if (Page) return <Page {...props} />;
    if (failed && inline) return <p role="alert">This part could not be loaded. Reload the page to try again.</p>;
    if (inline) return null;
    if (failed)
      return (
        <div class={style.empty} role="alert">
          <p>This page could not be loaded.</p>
          <button type="button" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      );
    return (
      <div class={style.empty} aria-busy="true">
        Loading…
      </div>
    );
  };
}
