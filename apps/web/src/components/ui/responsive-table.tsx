import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Collapse from '@mui/material/Collapse';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import type { SxProps, Theme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Fragment, type MouseEvent, type ReactNode } from 'react';
import { TableEmptyRow } from './table-states';

/**
 * Where a column goes on a phone card: `leading` (a checkbox) and `title` head it with `actions` (a
 * status chip, never cut) at its right, `beforeAfter` (what changed) follows the title, `primary`
 * fields follow as «label: value» lines, `secondary` ones share one grey caption line, `hidden` ones
 * are left out.
 */
export type CardRole = 'beforeAfter' | 'leading' | 'title' | 'primary' | 'secondary' | 'actions' | 'hidden';

export type ResponsiveColumn<Row> = {
  id: string;
  /** The header cell's content (a sort label may sit in it). */
  header: ReactNode;
  /** The field's name on a card when `header` is not plain text. */
  label?: string;
  cell: (row: Row) => ReactNode;
  /** What the card shows instead of `cell`, when the table's form does not suit a card. */
  cardCell?: (row: Row) => ReactNode;
  card?: CardRole;
  align?: 'left' | 'right' | 'center';
  /** For the header and body cells alike (widths, hiding on narrow desktops). */
  sx?: SxProps<Theme>;
  cellSx?: SxProps<Theme>;
  /** For cells that hold their own controls: a click there does not open the row. */
  stopClick?: boolean;
  padding?: 'checkbox' | 'normal' | 'none';
  /** The header's `aria-sort` when the list is sorted by this column. */
  sortDirection?: 'asc' | 'desc' | false;
};

export type RowOptions = {
  testId?: string;
  /** `data-*` attributes, on the row and on the card. */
  data?: Record<string, string | number | boolean>;
  selected?: boolean;
  onClick?: () => void;
  sx?: SxProps<Theme>;
};

type ResponsiveTableProps<Row> = {
  rows: readonly Row[];
  columns: readonly ResponsiveColumn<Row>[];
  getRowId: (row: Row) => string;
  ariaLabel: string;
  rowOptions?: (row: Row) => RowOptions;
  /** Placeholder rows stand in while the first page loads. */
  loading?: boolean;
  skeletonRows?: number;
  /** Shown instead of rows when `showEmpty` (the server answered with none). */
  empty?: ReactNode;
  showEmpty?: boolean;
  /** Above the cards only, e.g. «select the page» that the table has in its header. */
  cardsHeader?: ReactNode;
  /**
   * Eight columns and more on a 1400 px desktop: cells keep 8 px at their sides instead of 16 (the first
   * keeps its 16 at the card's edge), so the table fits its card without its text wrapping word by word.
   */
  dense?: boolean;
  /** What a row unfolds (under the row on desktops, at the card's foot on phones) while `detailOpen`. */
  detail?: (row: Row) => ReactNode;
  detailOpen?: (row: Row) => boolean;
  /** `auto` follows the screen: cards below `sm` (600 px, the spec's first breakpoint). */
  layout?: 'auto' | 'table' | 'cards';
};

const stop = (event: MouseEvent) => event.stopPropagation();

const dataAttributes = (options: RowOptions) => ({
  'data-testid': options.testId,
  ...Object.fromEntries(
    Object.entries(options.data ?? {}).map(([key, value]) => [`data-${key}`, String(value)]),
  ),
});

const columnLabel = <Row,>(column: ResponsiveColumn<Row>) =>
  column.label ?? (typeof column.header === 'string' ? column.header : '');

/** One table on desktops and a list of cards on phones, from one description of the columns. */
export function ResponsiveTable<Row>(props: ResponsiveTableProps<Row>) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const cards = props.layout === 'cards' || (props.layout !== 'table' && phone);
  return cards ? <CardList {...props} /> : <DesktopTable {...props} />;
}

function DesktopTable<Row>({
  rows,
  columns,
  getRowId,
  ariaLabel,
  rowOptions,
  loading,
  skeletonRows = 5,
  empty,
  showEmpty,
  dense,
  detail,
  detailOpen,
}: ResponsiveTableProps<Row>) {
  return (
    <TableContainer>
      <Table size="small" aria-label={ariaLabel} sx={dense ? DENSE : undefined}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell
                key={column.id}
                align={column.align}
                padding={column.padding}
                sortDirection={column.sortDirection}
                sx={column.sx}
              >
                {column.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading &&
            Array.from({ length: skeletonRows }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
              <TableRow key={index}>
                <TableCell colSpan={columns.length}>
                  <Skeleton height={32} />
                </TableCell>
              </TableRow>
            ))}
          {rows.map((row) => {
            const options = rowOptions?.(row) ?? {};
            const open = detailOpen?.(row) ?? false;
            return (
              <Fragment key={getRowId(row)}>
                <TableRow
                  hover
                  selected={options.selected}
                  onClick={options.onClick}
                  sx={[{ cursor: options.onClick ? 'pointer' : undefined }, ...asArray(options.sx)]}
                  {...dataAttributes(options)}
                >
                  {columns.map((column) => (
                    <TableCell
                      key={column.id}
                      align={column.align}
                      padding={column.padding}
                      onClick={column.stopClick ? stop : undefined}
                      sx={[...asArray(column.sx), ...asArray(column.cellSx)]}
                    >
                      {column.cell(row)}
                    </TableCell>
                  ))}
                </TableRow>
                {detail && (
                  <TableRow>
                    <TableCell colSpan={columns.length} sx={{ py: 0, ...(open ? {} : { borderBottom: 0 }) }}>
                      <Collapse in={open} unmountOnExit>
                        {detail(row)}
                      </Collapse>
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
          {showEmpty && rows.length === 0 && <TableEmptyRow colSpan={columns.length}>{empty}</TableEmptyRow>}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

const DENSE = { '& td, & th': { px: 1 }, '& td:first-of-type, & th:first-of-type': { pl: 2 } } as const;

const asArray = (sx: SxProps<Theme> | undefined) =>
  (sx === undefined ? [] : Array.isArray(sx) ? sx : [sx]) as Extract<SxProps<Theme>, readonly unknown[]>;

function CardList<Row>({
  rows,
  columns,
  getRowId,
  ariaLabel,
  rowOptions,
  loading,
  skeletonRows = 3,
  empty,
  showEmpty,
  cardsHeader,
  detail,
  detailOpen,
}: ResponsiveTableProps<Row>) {
  const byRole = (role: CardRole) => columns.filter((column) => (column.card ?? 'primary') === role);
  const roles = {
    beforeAfter: byRole('beforeAfter'),
    leading: byRole('leading'),
    title: byRole('title'),
    primary: byRole('primary'),
    secondary: byRole('secondary'),
    actions: byRole('actions'),
  };
  const content = (column: ResponsiveColumn<Row>, row: Row) => (column.cardCell ?? column.cell)(row);

  return (
    <Box sx={{ px: 1.5, pb: 1 }}>
      {cardsHeader}
      <Stack component="ul" aria-label={ariaLabel} spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {loading &&
          Array.from({ length: skeletonRows }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cards have no identity
            <Box component="li" key={index}>
              <Skeleton variant="rounded" height={96} />
            </Box>
          ))}
        {rows.map((row) => {
          const options = rowOptions?.(row) ?? {};
          const secondary = roles.secondary.map((column) => ({ id: column.id, node: content(column, row) }));
          return (
            <Card
              component="li"
              variant="outlined"
              key={getRowId(row)}
              onClick={options.onClick}
              sx={[
                {
                  p: 1.5,
                  cursor: options.onClick ? 'pointer' : undefined,
                  borderColor: options.selected ? 'primary.main' : undefined,
                  overflowWrap: 'anywhere',
                },
                ...asArray(options.sx),
              ]}
              {...dataAttributes(options)}
            >
              <Stack spacing={1}>
                {(roles.leading.length > 0 || roles.title.length > 0 || roles.actions.length > 0) && (
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
                    {roles.leading.map((column) => (
                      <Box key={column.id} onClick={stop} sx={{ mt: -0.75, ml: -0.75 }}>
                        {content(column, row)}
                      </Box>
                    ))}
                    {/* A long title (a VIN kept on one line in the table) wraps here instead of running
                        under the status chip at its right. */}
                    <Box
                      sx={{ flex: 1, minWidth: 0, '&& *': { whiteSpace: 'normal' } }}
                      data-card-role="title"
                    >
                      {roles.title.map((column) => (
                        <Box key={column.id}>{content(column, row)}</Box>
                      ))}
                    </Box>
                    {roles.actions.map((column) => (
                      // A status chip keeps its whole label: the title gives way, not the chip.
                      <Box key={column.id} onClick={stop} sx={{ mt: -0.5, mr: -0.75, flexShrink: 0 }}>
                        {content(column, row)}
                      </Box>
                    ))}
                  </Stack>
                )}
                {roles.beforeAfter.map((column) => (
                  <Box key={column.id} data-card-role="beforeAfter">
                    {content(column, row)}
                  </Box>
                ))}
                {roles.primary.length > 0 && (
                  <Box
                    component="dl"
                    sx={{
                      m: 0,
                      display: 'grid',
                      // The labels take at most 40 % (a long one wraps), so a value such as a status
                      // chip keeps room for its whole label.
                      gridTemplateColumns: 'fit-content(40%) minmax(0, 1fr)',
                      gap: 0.5,
                      columnGap: 1.5,
                    }}
                  >
                    {roles.primary.map((column) => (
                      <CardField key={column.id} label={columnLabel(column)}>
                        {content(column, row)}
                      </CardField>
                    ))}
                  </Box>
                )}
                {secondary.length > 0 && (
                  <Stack
                    direction="row"
                    data-card-role="secondary"
                    sx={{ flexWrap: 'wrap', columnGap: 1.5, rowGap: 0.25, color: 'text.secondary' }}
                  >
                    {secondary.map(({ id, node }) => (
                      <Typography key={id} variant="caption" component="div">
                        {node}
                      </Typography>
                    ))}
                  </Stack>
                )}
                {detail && (detailOpen?.(row) ?? false) && <Box>{detail(row)}</Box>}
              </Stack>
            </Card>
          );
        })}
      </Stack>
      {showEmpty && rows.length === 0 && (
        <Typography sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>{empty}</Typography>
      )}
    </Box>
  );
}

function CardField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        sx={{
          m: 0,
          minWidth: 0,
          // A chip longer than the value's column («Проверен, ждёт подтверждения» beside the labels at
          // 390 px) takes a second line instead of losing its end to an ellipsis.
          '& .MuiChip-root': { height: 'auto' },
          '& .MuiChip-sizeSmall': { minHeight: 24 },
          '& .MuiChip-sizeMedium': { minHeight: 32 },
          '& .MuiChip-label': { whiteSpace: 'normal', py: '2px' },
        }}
      >
        {children}
      </Typography>
    </>
  );
}
