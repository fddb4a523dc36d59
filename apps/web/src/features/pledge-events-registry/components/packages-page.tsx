import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import ListAltIcon from '@mui/icons-material/ListAlt';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  PACKAGE_EXPORT_FORMATS,
  type PackageAction,
  PLEDGE_EVENT_KIND_LABELS,
  type PledgeEventKind,
  type PledgePackage,
  pledgeEndpoints,
} from '@pledgewatch/contract';
import { useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ServerPagination } from '@/components/ui/server-pagination';
import { texts } from '@/features/pledge-events-registry/texts';
import { ApiError, endpointUrl, getErrorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { formatDateTime } from '@/lib/format';
import { usePagination } from '@/lib/pagination';
import { useDownloadRegistryXml } from '../api/download-registry-xml';
import { usePledgePackage } from '../api/get-pledge-package';
import { usePledgePackages } from '../api/get-pledge-packages';
import { useImportRegistrationNumbers } from '../api/import-registration-numbers';
import { useImportRegistryResults } from '../api/import-registry-results';
import { useTransitionPledgePackage } from '../api/transition-pledge-package';
import { EventDrawer } from './event-drawer';
import { PackageEventsDialog } from './package-events-dialog';

const t = texts.pledgeEventsRegistry.packages;

const PACKAGES_PAGE_SIZE = 20;

type ConfirmedAction = 'approve' | 'return' | 'send' | 'register';

const CONFIRM_LABELS: Record<ConfirmedAction, string> = {
  approve: t.approve,
  return: t.returnToDraft,
  send: t.send,
  register: t.register,
};

const STATUS_COLORS: Record<string, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  draft: 'info',
  ready: 'warning',
  sent: 'info',
  registered: 'success',
  rejected: 'error',
};

/** Packages of notifications and their lifecycle: draft → ready (a second person approves) → sent → registered | rejected. */
export default function PackagesPage() {
  const [params] = useSearchParams();
  const linked = params.get('package');
  return linked ? <LinkedPackage id={linked} /> : <PackagesList />;
}

/** One package opened by a link (`?package=<id>`, e.g. from the header search), with a way back to all. */
function LinkedPackage({ id }: { id: string }) {
  const found = usePledgePackage(id);
  return (
    <Stack spacing={2}>
      <Button component={RouterLink} to="?" sx={{ alignSelf: 'flex-start' }}>
        {t.allPackages}
      </Button>
      {found.isPending ? (
        <Skeleton variant="rounded" height={200} />
      ) : found.isError ? (
        <Alert severity="error">{getErrorMessage(found.error)}</Alert>
      ) : (
        <PackageCard item={found.data} />
      )}
    </Stack>
  );
}

function PackagesList() {
  const { page, pageSize, onChange } = usePagination(PACKAGES_PAGE_SIZE);
  const packages = usePledgePackages({ page, pageSize });
  if (packages.isPending) {
    return <Skeleton variant="rounded" height={200} />;
  }
  if (packages.isError) {
    return <Alert severity="error">{getErrorMessage(packages.error)}</Alert>;
  }
  if (packages.data.items.length === 0) {
    return <Alert severity="info">{t.empty}</Alert>;
  }
  return (
    <Stack spacing={2}>
      {packages.data.items.map((item) => (
        <PackageCard key={item.id} item={item} />
      ))}
      <ServerPagination
        count={packages.data.total}
        page={page}
        pageSize={pageSize}
        onChange={onChange}
        rowsPerPageOptions={[PACKAGES_PAGE_SIZE]}
        labelDisplayedRows={({ from, to, count }) => texts.pledgeEventsRegistry.table.of(from, to, count)}
      />
    </Stack>
  );
}

function PackageCard({ item }: { item: PledgePackage }) {
  const user = useUser();
  const canWrite = user !== undefined && user.role !== 'viewer';
  const [rejecting, setRejecting] = useState(false);
  const transition = useTransitionPledgePackage({
    onSuccess: (updated) => {
      setRejecting(false);
      setConfirming(null);
      toast.success(t.done(updated.statusLabel));
    },
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const numbers = useImportRegistrationNumbers({
    onSuccess: (result) => toast.success(t.numbersSaved(result.updated, result.rejected.length)),
    onError: (error) => toast.error(getErrorMessage(error)),
  });
  const results = useImportRegistryResults({
    onSuccess: (result) =>
      toast.success(t.resultsSaved(result.package.registeredCount, result.package.eventsCount)),
  });
  const xml = useDownloadRegistryXml();
  // The export's and the results' refusals list each notification or file: shown in full, not as a toast.
  const refusal = [xml.error, results.error].find((error) => error instanceof ApiError) as
    | ApiError
    | undefined;
  const act = (action: PackageAction, comment?: string) =>
    transition.mutate({ packageId: item.id, action, comment });
  // Every move but the rejection (which has its own dialog) asks first: none can be taken back as is.
  const [confirming, setConfirming] = useState<ConfirmedAction | null>(null);
  const [showEvents, setShowEvents] = useState(false);
  const [openEventId, setOpenEventId] = useState<string | null>(null);
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      data-testid="pledge-package"
      data-status={item.status}
      data-package-id={item.id}
      aria-label={item.name}
      role="region"
    >
      <Stack spacing={1.5}>
        <PackageHeading item={item} />
        {item.rejectionReason && <Alert severity="error">{t.rejected(item.rejectionReason)}</Alert>}
        {refusal && <RegistryRefusal refusal={refusal} />}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {canWrite && item.status === 'draft' && (
            <Tooltip title={item.approveBlockedReason ?? ''}>
              <span>
                <Button
                  variant="contained"
                  size="small"
                  disabled={!item.canApprove}
                  loading={transition.isPending}
                  onClick={() => setConfirming('approve')}
                  aria-describedby={item.approveBlockedReason ? `approve-blocked-${item.id}` : undefined}
                >
                  {t.approve}
                </Button>
              </span>
            </Tooltip>
          )}
          {canWrite && item.status === 'draft' && item.approveBlockedReason && (
            <Typography
              variant="caption"
              color="text.secondary"
              id={`approve-blocked-${item.id}`}
              data-testid="approve-blocked-reason"
              sx={{ alignSelf: 'center', flexBasis: '100%' }}
            >
              {item.approveBlockedReason}
            </Typography>
          )}
          {canWrite && item.status === 'ready' && (
            <>
              <Button
                variant="contained"
                size="small"
                loading={transition.isPending}
                onClick={() => setConfirming('send')}
              >
                {t.send}
              </Button>
              <Button size="small" disabled={transition.isPending} onClick={() => setConfirming('return')}>
                {t.returnToDraft}
              </Button>
            </>
          )}
          {canWrite && item.status === 'sent' && (
            <>
              <Button
                variant="contained"
                size="small"
                color="success"
                loading={transition.isPending}
                onClick={() => setConfirming('register')}
              >
                {t.register}
              </Button>
              <Button size="small" color="error" onClick={() => setRejecting(true)}>
                {t.reject}
              </Button>
            </>
          )}
          {item.status !== 'draft' && (
            <Button
              size="small"
              variant="contained"
              color="secondary"
              startIcon={<FileDownloadOutlinedIcon />}
              loading={xml.isPending}
              onClick={() => {
                results.reset();
                xml.mutate({ packageId: item.id, fileName: `пакет-${item.number}-реестр.zip` });
              }}
            >
              {t.exportXml}
            </Button>
          )}
          {canWrite && (item.status === 'sent' || item.status === 'registered') && (
            <RegistryFileButtons item={item} numbers={numbers} results={results} xml={xml} />
          )}
          <Button
            size="small"
            variant="outlined"
            startIcon={<ListAltIcon />}
            onClick={() => setShowEvents(true)}
          >
            {t.openEvents}
          </Button>
          {PACKAGE_EXPORT_FORMATS.filter((format) => format !== 'xml').map((format) => (
            <Button
              key={format}
              size="small"
              variant="outlined"
              startIcon={<FileDownloadOutlinedIcon />}
              href={endpointUrl(pledgeEndpoints.exportPackage, {
                params: { id: item.id },
                query: { format },
              })}
              download
            >
              {format === 'json' ? t.exportJson : t.exportXlsx}
            </Button>
          ))}
        </Stack>
      </Stack>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming ? t.confirm[confirming].title : ''}
        message={confirming ? t.confirm[confirming].message : ''}
        confirmLabel={confirming ? CONFIRM_LABELS[confirming] : ''}
        pending={transition.isPending}
        onConfirm={() => confirming && act(confirming)}
        onClose={() => setConfirming(null)}
      />
      {showEvents && (
        <PackageEventsDialog item={item} onClose={() => setShowEvents(false)} onOpenEvent={setOpenEventId} />
      )}
      <EventDrawer eventId={openEventId} onClose={() => setOpenEventId(null)} />
      <RejectDialog
        open={rejecting}
        pending={transition.isPending}
        onClose={() => setRejecting(false)}
        onReject={(reason) => act('reject', reason)}
      />
    </Paper>
  );
}

/** The package's name, status and counts, who made and who approved it. */
function PackageHeading({ item }: { item: PledgePackage }) {
  const kinds = Object.entries(item.kinds)
    .map(([kind, count]) => `${PLEDGE_EVENT_KIND_LABELS[kind as PledgeEventKind] ?? kind}: ${count}`)
    .join(' · ');
  return (
    <>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {item.name.startsWith('Пакет №') ? item.name : `${t.number(item.number)} · ${item.name}`}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={STATUS_COLORS[item.status]}
          label={item.statusLabel}
          data-testid="package-status"
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {[t.events(item.eventsCount), kinds, t.registered(item.registeredCount, item.eventsCount)]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {[
          item.createdBy ? t.createdBy(item.createdBy.fullName, formatDateTime(item.createdAt)) : null,
          item.approvedBy ? t.approvedBy(item.approvedBy.fullName, formatDateTime(item.approvedAt)) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Typography>
    </>
  );
}

/** The registry's refusal of an export or a results file, each notification or file on its own line. */
function RegistryRefusal({ refusal }: { refusal: ApiError }) {
  return (
    <Alert severity="error" data-testid="registry-refusal">
      {refusal.message}
      {refusal.fieldErrors.length > 0 && (
        <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {refusal.fieldErrors.map((error) => (
            <li key={`${error.field}|${error.message}`}>{error.message}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

/** The registry's files for a sent or registered package: its results (ZIP/XML) and a numbers table. */
function RegistryFileButtons({
  item,
  numbers,
  results,
  xml,
}: {
  item: PledgePackage;
  numbers: ReturnType<typeof useImportRegistrationNumbers>;
  results: ReturnType<typeof useImportRegistryResults>;
  xml: ReturnType<typeof useDownloadRegistryXml>;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const resultsInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<UploadFileIcon />}
        loading={results.isPending}
        onClick={() => resultsInput.current?.click()}
      >
        {t.resultsFile}
      </Button>
      <input
        ref={resultsInput}
        type="file"
        hidden
        accept=".zip,.xml"
        data-testid="registry-results-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) {
            xml.reset();
            results.mutate({ packageId: item.id, file });
          }
          event.target.value = '';
        }}
      />
      <Button
        size="small"
        variant="outlined"
        startIcon={<UploadFileIcon />}
        loading={numbers.isPending}
        onClick={() => fileInput.current?.click()}
      >
        {t.numbersFile}
      </Button>
      <input
        ref={fileInput}
        type="file"
        hidden
        accept=".csv,.xlsx"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) {
            numbers.mutate({ packageId: item.id, file });
          }
          event.target.value = '';
        }}
      />
    </>
  );
}

/** Asks for the registry's reason before a package is marked rejected. */
function RejectDialog({
  open,
  pending,
  onClose,
  onReject,
}: {
  open: boolean;
  pending: boolean;
  onClose: () => void;
  onReject: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t.rejectTitle}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          multiline
          minRows={2}
          fullWidth
          label={t.rejectReason}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          sx={{ mt: 1 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{texts.common.cancel}</Button>
        <Button
          color="error"
          variant="contained"
          disabled={!reason.trim()}
          loading={pending}
          onClick={() => onReject(reason)}
        >
          {t.reject}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
