import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import Button, { type ButtonProps } from '@mui/material/Button';
import { toast } from 'react-toastify';
import { texts } from '@/features/one-time-check/texts';
import { getErrorMessage } from '@/lib/api-client';
import { useDownloadCheckPdf } from '../api/download-check-pdf';

type PdfDownloadButtonProps = { id: string; number: string; variant?: ButtonProps['variant'] };

export function PdfDownloadButton({ id, number, variant = 'outlined' }: PdfDownloadButtonProps) {
  const download = useDownloadCheckPdf({ onError: (error) => toast.error(getErrorMessage(error)) });
  return (
    <Button
      variant={variant}
      startIcon={<PictureAsPdfOutlinedIcon />}
      loading={download.isPending}
      onClick={() => download.mutate({ id, fileName: texts.oneTimeCheck.pdfFileName(number) })}
    >
      {texts.oneTimeCheck.downloadPdf}
    </Button>
  );
}
