import { useEffect, useState } from 'preact/hooks';

/** Where the server serves the console; every page lives under it (`/console/memories`). */
export const CONSOLE_BASE = '/console';

const NAVIGATED = 'memory-console:navigated';

/** The path of a console page: `consolePath('memories')` is `/console/memories`. */
export function consolePath(...segments: string[]): string {
  return [CONSOLE_BASE, ...segments.map(encodeURIComponent)].join('/');
}

/** Goes to another console URL without reloading the page (history API; the server answers every path with the app). */
export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATED));
}

/** The current location inside the console. */
export interface ConsoleLocation {
  /** The path segments after `/console` (`['memories']`, `['sessions', 'abc']`, `[]`). */
  segments: string[];
  searchParams: URLSearchParams;
}

function readLocation(): ConsoleLocation {
  const rest = location.pathname.startsWith(CONSOLE_BASE) ? location.pathname.slice(CONSOLE_BASE.length) : '';
  const segments = rest
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment));
  return { segments, searchParams: new URLSearchParams(location.search) };
}

/** The current location, re-rendering on `navigate`, links and the back and forward buttons. */
export function useConsoleLocation(): ConsoleLocation {
  const [current, setCurrent] = useState(readLocation);
  useEffect(() => {
    const update = () => setCurrent(readLocation());
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATED, update);
    };
  }, []);
  return current;
}
