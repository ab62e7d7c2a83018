import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** Moves to another page of the app without a reload. */
export function navigate(to: string): void {
  history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** A link inside the app: opens the page without reloading the document. */
export function Link(props: { href: string; children: ComponentChildren; class?: string }) {
  return (
    <a
      href={props.href}
      class={props.class}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

export function useLocation(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const on = () => setPath(location.pathname);
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return path;
}
