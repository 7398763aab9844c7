// Hash routes (#/rooms, #/room/123, #/settings, #/files/dir/, #/webhooks, #/logs): the server only ever serves /ui/.
import { useEffect, useState } from 'preact/hooks';

export interface Route { page: string; arg: string }

export function parseHash(hash: string): Route {
  const path = decodeURIComponent(hash.replace(/^#\/?/, ''));
  const [page, ...rest] = path.split('/');
  return { page: page || 'rooms', arg: rest.join('/') };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseHash(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

export const go = (hash: string): void => {
  location.hash = hash;
};
