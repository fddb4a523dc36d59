import { keyframes } from '@emotion/react';
import Box from '@mui/material/Box';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PAGE_TRANSITION_MS } from '@/config/constants';

const fadeIn = keyframes`
  from { opacity: 0; transform: translateY(4px); }
  to { opacity: 1; transform: none; }
`;

/** Fades the page area in on every route change (keyed by path, so tabs inside a page fade too). */
export function PageTransition({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <Box
      key={pathname}
      sx={{
        animation: `${fadeIn} ${PAGE_TRANSITION_MS}ms ease-out`,
        '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
      }}
    >
      {children}
    </Box>
  );
}
