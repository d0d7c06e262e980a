/// <reference lib="webworker" />
/**
 * The console's service worker (issue 18), bundled once the console is built and given its
 * precache list (../service-worker.ts, Workbox's injectManifest): Workbox precaches the app shell the build lists; a round's data is answered
 * from the network when there is one and else from the last answer kept (a scan made meanwhile
 * waits in the offline queue); the members' photos the roster showed are kept a day. Nothing else
 * from /api is kept on the device. A new version takes over at once.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Parameters<typeof precacheAndRoute>[0] };

void self.skipWaiting();
clientsClaim();
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any page of the console opens offline; the API, uploads and the certificate page are the server's.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api\//, /^\/uploads\//, /^\/trust/],
  }),
);

registerRoute(
  ({ url, request }) => request.method === 'GET' && /^\/api\/admin\/rounds\/[^/]+$/.test(url.pathname),
  new NetworkFirst({
    cacheName: 'rounds',
    networkTimeoutSeconds: 4,
    // ?minPosition= (read-your-writes) varies; the round is the same.
    matchOptions: { ignoreSearch: true },
    plugins: [new ExpirationPlugin({ maxEntries: 50 })],
  }),
);

// Members' photos, as the roster shows them: the person at the door compares faces, offline too.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.pathname.startsWith('/uploads/profiles/'),
  new CacheFirst({
    cacheName: 'photos',
    plugins: [
      new ExpirationPlugin({ maxEntries: 500, maxAgeSeconds: 24 * 3600 }),
      new CacheableResponsePlugin({ statuses: [200] }),
    ],
  }),
);
