import { useEffect } from 'react';

/** Validation banners clear after 5 seconds (spec 000 section 9). */
export const BANNER_MS = 5000;

/** A message above a form that clears itself after BANNER_MS. */
export function Banner({ message, onDone }: { message: string | null; onDone: () => void }) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onDone, BANNER_MS);
    return () => clearTimeout(timer);
  }, [message, onDone]);
  if (!message) return null;
  return (
    <div className="banner banner-error" role="alert">
      {message}
    </div>
  );
}
