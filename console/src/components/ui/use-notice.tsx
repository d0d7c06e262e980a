import { useState } from 'react';
import { Dialog, type DialogTone } from './dialog.tsx';

export interface Notice {
  tone: DialogTone;
  title: string;
  message?: string;
  /** What happens when the notice is closed (go home, start the form again). */
  then?: () => void;
}

/** A one-button message dialog: `show` opens it; `dialog` is what to render; closing runs `then`. */
export function useNotice() {
  const [notice, show] = useState<Notice | null>(null);
  const dialog = notice && (
    <Dialog
      tone={notice.tone}
      title={notice.title}
      onClose={() => {
        show(null);
        notice.then?.();
      }}
    >
      {notice.message}
    </Dialog>
  );
  return { show, dialog };
}
