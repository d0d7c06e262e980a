import { AboutPage } from '../../features/about/components/about-page.tsx';

export default function AboutPageRoute() {
  return <AboutPage />;
}
