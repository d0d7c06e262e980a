import { ImportPage } from '../../features/imports/components/import-page.tsx';

export default function ImportsRoute() {
  return <ImportPage />;
}
