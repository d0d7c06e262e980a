import type { ReactNode } from 'react';

/**
 * A table that may be wider than the screen: it scrolls sideways inside its frame (the page
 * never does), and the frame is a named region that takes keyboard focus, so the hidden columns
 * can be reached with the arrow keys too.
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
