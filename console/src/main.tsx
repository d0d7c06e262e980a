// Thai and Latin text in one face on every machine, whatever fonts it has.
import '@fontsource/sarabun/400.css';
import '@fontsource/sarabun/600.css';
import '@fontsource/sarabun/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProvider } from './app/provider.tsx';
import { router } from './app/router.tsx';
import { i18nReady } from './lib/i18n.ts';
import { storedTheme } from './lib/storage.ts';
import './styles.css';
import './courses.css';
import './reports.css';
import './pages.css';

document.documentElement.dataset.theme = storedTheme();

await i18nReady;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
