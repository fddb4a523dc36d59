/** Filters side by side where there is room (selects are as wide as their box, so no flex wrap). */
export const FILTER_GRID = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: {
    xs: '1fr',
    sm: 'repeat(2, minmax(0, 1fr))',
    md: 'repeat(auto-fill, minmax(200px, 1fr))',
  },
} as const;
