import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { ToastContainer } from 'react-toastify';
import { TOAST_OPTIONS } from '@/config/constants';
import { createQueryClient } from '@/lib/react-query';
import { createAppTheme, type ResolvedTheme, ThemeModeProvider } from '@/lib/theme';

function MuiTheme({ mode, children }: { mode: ResolvedTheme; children: ReactNode }) {
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
      <ToastContainer {...TOAST_OPTIONS} theme={mode} />
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
