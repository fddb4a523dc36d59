import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { EmptyState } from '@/components/ui/empty-state';
import { texts } from '@/features/monitoring-upload/texts';

/** Viewers read the portfolio but cannot add to it. */
export function ViewerNotice() {
  return (
    <EmptyState
      icon={<LockOutlinedIcon sx={{ fontSize: 48, opacity: 0.6 }} />}
      title={texts.monitoringUpload.viewerTitle}
      description={texts.monitoringUpload.viewerHint}
    />
  );
}
