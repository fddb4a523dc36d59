import GlobalStyles from '@mui/material/GlobalStyles';

/**
 * On paper only the document is printed: the layout's app bar, drawer and toolbar spacer, the
 * loading bar and toasts are hidden, and the main area loses its padding.
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        '@page': { size: 'A4', margin: '14mm 14mm 16mm' },
        '@media print': {
          'html, body': { background: '#fff !important', color: '#000' },
          '.MuiAppBar-root, .MuiDrawer-root, aside, .Toastify, [data-print="hide"], [role="progressbar"]': {
            display: 'none !important',
          },
          'main > .MuiToolbar-root': { display: 'none !important' },
          'main, main > div': {
            padding: '0 !important',
            margin: '0 !important',
            maxWidth: 'none !important',
            background: '#fff !important',
          },
        },
      }}
    />
  );
}
