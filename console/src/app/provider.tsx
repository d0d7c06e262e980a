import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useState } from 'react';
import { ToastProvider } from '../components/ui/toast.tsx';
import { SessionProvider } from '../lib/session.tsx';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1 } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <ToastProvider>
          <Suspense fallback={<div className="spinner" role="status" />}>{children}</Suspense>
        </ToastProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
