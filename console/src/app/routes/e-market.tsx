import { CataloguePage } from '../../features/catalogue/components/catalogue-page.tsx';

export default function EMarketRoute() {
  return <CataloguePage />;
}
