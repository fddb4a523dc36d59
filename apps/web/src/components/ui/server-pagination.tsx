import TablePagination, { type TablePaginationProps } from '@mui/material/TablePagination';
import { PAGE_SIZE_OPTIONS } from '@/config/constants';

type ServerPaginationProps = {
  /** Rows on the server; `undefined` until the first answer, when the first page is shown. */
  count: number | undefined;
  /** The current page, from 1 as the API counts. */
  page: number;
  pageSize: number;
  /** Called with the next page and size; a new page size always goes back to page 1. */
  onChange: (page: number, pageSize: number) => void;
  rowsPerPageOptions?: number[];
} & Pick<TablePaginationProps, 'labelRowsPerPage' | 'labelDisplayedRows'>;

/** At 390 px the page-size label gives way, so the page arrows stay on the screen. */
const PHONE_COMPACT = {
  '& .MuiTablePagination-toolbar': { px: { xs: 1, sm: 2 } },
  '& .MuiTablePagination-selectLabel': { display: { xs: 'none', sm: 'block' } },
  '& .MuiTablePagination-input': { mr: { xs: 1, sm: 4 }, ml: { xs: 0, sm: 1 } },
  '& .MuiTablePagination-actions': { ml: { xs: 1, sm: 2.5 } },
} as const;

/** MUI's pagination under a server-paged table, with the platform's page sizes. */
export function ServerPagination({
  count,
  page,
  pageSize,
  onChange,
  rowsPerPageOptions = PAGE_SIZE_OPTIONS,
  ...labels
}: ServerPaginationProps) {
  return (
    <TablePagination
      component="div"
      count={count ?? 0}
      page={count === undefined ? 0 : page - 1}
      onPageChange={(_, next) => onChange(next + 1, pageSize)}
      rowsPerPage={pageSize}
      rowsPerPageOptions={rowsPerPageOptions}
      onRowsPerPageChange={(event) => onChange(1, Number(event.target.value))}
      sx={PHONE_COMPACT}
      {...labels}
    />
  );
}
