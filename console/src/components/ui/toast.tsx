import { type ReactNode, createContext, useCallback, useContext, useMemo, useState } from 'react';

export type ToastTone = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
}

/** Settings toasts last 3 seconds (spec 000 section 9). */
export const TOAST_MS = 3000;

const ToastContext = createContext<(tone: ToastTone, message: string, ms?: number) => void>(() => {});

/** Short notices in a corner, announced politely, each gone after TOAST_MS or its own time. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback((tone: ToastTone, message: string, ms = TOAST_MS) => {
    const id = Date.now() + Math.random();
    setToasts((all) => [...all, { id, tone, message }]);
    setTimeout(() => setToasts((all) => all.filter((toast) => toast.id !== id)), ms);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            {toast.message}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
