import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { TOAST_OPTIONS } from '@/config/constants';
import { withChunkReload } from '@/lib/chunk-reload';
import { createQueryClient } from '@/lib/react-query';
import { createAppTheme, type ResolvedTheme, ThemeModeProvider } from '@/lib/theme';
import { useToastHostRequested } from '@/lib/toast-host';

// Fetched only when asked for (see lib/toast-host.ts): the sign-in page does without it.
const ToastContainer = lazy(
  withChunkReload(() => import('react-toastify').then(({ ToastContainer }) => ({ default: ToastContainer }))),
);

function MuiTheme({ mode, children }: { mode: ResolvedTheme; children: ReactNode }) {
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  const toastHost = useToastHostRequested();
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
      {toastHost && (
        <Suspense fallback={null}>
          <ToastContainer {...TOAST_OPTIONS} theme={mode} />
        </Suspense>
      )}
    </ThemeProvider>
  );
}

export function AppProvider({
  children,
}: {
  children: (queryClient: ReturnType<typeof createQueryClient>) => ReactNode;
}) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeModeProvider>
        {(mode) => <MuiTheme mode={mode}>{children(queryClient)}</MuiTheme>}
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}
