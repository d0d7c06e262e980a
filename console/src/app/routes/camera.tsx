import { CameraPage } from '../../features/camera/components/camera-page.tsx';

export default function CameraPageRoute() {
  return <CameraPage />;
}
