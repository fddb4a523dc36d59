import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { UPLOAD_FORMATS, type UploadFormat, uploadEndpoints } from '@pledgewatch/contract';
import { endpointUrl } from '@/lib/api-client';

/**
 * Plain download links: the server also takes the auth cookie for downloads, so the browser saves
 * the file itself with the name the server gives.
 */
export function UploadFileLinks({
  uploadId,
  href,
  label,
  ariaLabel,
  size = 'small',
  noWrap = false,
}: {
  /** Error file of this upload; without it, the template. */
  uploadId?: string;
  /** Another file per format (the pledge notifications template); overrides `uploadId`. */
  href?: (format: UploadFormat) => string;
  label: (format: string) => string;
  /** A fuller accessible name when the visible label is short (a table cell shows only «CSV»). */
  ariaLabel?: (format: string) => string;
  size?: 'small' | 'medium';
  /** Keep the links on one line (a table cell). */
  noWrap?: boolean;
}) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: noWrap ? 'nowrap' : 'wrap', rowGap: 1 }}>
      {UPLOAD_FORMATS.map((format) => (
        <Button
          key={format}
          size={size}
          variant="outlined"
          startIcon={<FileDownloadOutlinedIcon />}
          href={
            href
              ? href(format)
              : uploadId
                ? endpointUrl(uploadEndpoints.errorsFile, { params: { id: uploadId }, query: { format } })
                : endpointUrl(uploadEndpoints.template, { query: { format, kind: 'items' } })
          }
          download
          aria-label={ariaLabel?.(format.toUpperCase())}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {label(format.toUpperCase())}
        </Button>
      ))}
    </Stack>
  );
}
