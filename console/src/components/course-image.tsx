import { useState } from 'react';

const PLACEHOLDER = '/course-placeholder.svg';

/** A course's image, or the placeholder when it has none or it cannot be loaded. */
export function CourseImage({ src, className = 'course-image' }: { src: string | null; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const shown = src && failed !== src ? src : PLACEHOLDER;
  return <img className={className} src={shown} alt="" loading="lazy" onError={() => setFailed(src)} />;
}
