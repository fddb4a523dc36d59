import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { texts } from '@/features/pledge-events-registry/texts';
import { useUser } from '@/lib/auth';
import { formatDateTime } from '@/lib/format';
import { usePledgeEvent } from '../api/get-pledge-event';
import { CorrectEventDialog } from './correct-event-dialog';
import { partyLines, ruDate, vehicleText } from './pledge-event-format';

const t = texts.pledgeEventsRegistry;

export function EventDrawer({ eventId, onClose }: { eventId: string | null; onClose: () => void }) {
  const detail = usePledgeEvent(eventId);
  const user = useUser();
  const canWrite = user !== undefined && user.role !== 'viewer';
  const [correcting, setCorrecting] = useState(false);
  const data = detail.data;
  return (
    <Drawer
      anchor="right"
      open={Boolean(eventId)}
      onClose={onClose}
      // Above the app bar, which the layout lifts over the navigation drawer.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
    >
      <Box
        sx={{ width: { xs: '100vw', sm: 480 }, p: 3 }}
        role="region"
        aria-label={data ? t.detail.title(data.kindLabel, ruDate(data.notificationDate)) : undefined}
      >
        {!data ? (
          <Skeleton height={200} />
        ) : (
          <Stack spacing={2.5}>
            <div>
              <Typography variant="h6" component="h2">
                {t.detail.title(data.kindLabel, ruDate(data.notificationDate))}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {`${t.detail.source[data.source]}${data.rowNumber ? `, ${t.detail.row(data.rowNumber)}` : ''} · ${data.pledge.statusLabel}`}
              </Typography>
            </div>
            {data.lapse && <Alert severity="warning">{t.table.lapse(data.lapse.daysLeft)}</Alert>}
            {data.status === 'rejected' && (
              <Alert severity="error" data-testid="rejection-alert">
                {t.detail.rejectedAlert(
                  data.lastRejection?.packageNumber ?? null,
                  data.lastRejection?.reason ?? null,
                )}
              </Alert>
            )}
            {data.canCorrect && canWrite && (
              <Box>
                <Button
                  variant="outlined"
                  startIcon={<EditOutlinedIcon />}
                  onClick={() => setCorrecting(true)}
                >
                  {t.detail.correct}
                </Button>
              </Box>
            )}
            <Section title={t.detail.pledgor} lines={partyLines(data.pledgor)} />
            <Section title={t.detail.pledgee} lines={partyLines(data.pledgee)} />
            <Section
              title={t.detail.contract}
              lines={[
                `${data.contract.name ?? ''} № ${data.contract.number} от ${ruDate(data.contract.date)}`.trim(),
                data.contract.endDate
                  ? `${texts.pledgeEventsRegistry.contractEndDate}: ${ruDate(data.contract.endDate)}`
                  : '',
              ].filter(Boolean)}
            />
            <Section
              title={t.detail.vehicles}
              lines={data.vehicles.map((v) => [vehicleText(v), v.description].filter(Boolean).join(' · '))}
            />
            {data.registeredNumber && (
              <Section
                title={t.detail.registeredNumber}
                lines={[
                  data.registeredNumber,
                  data.registeredAt ? t.detail.registeredAt(formatDateTime(data.registeredAt)) : '',
                  data.registryCheck
                    ? t.detail.registryCheck(
                        data.registryCheck.found,
                        formatDateTime(data.registryCheck.checkedAt),
                      )
                    : '',
                ].filter(Boolean)}
              />
            )}
            <Section
              title={t.detail.pledgeHistory}
              lines={data.pledgeHistory.map(
                (h) => `${ruDate(h.notificationDate)} — ${h.kindLabel} · ${h.statusLabel}`,
              )}
            />
            <Section
              title={t.detail.packageHistory}
              lines={
                data.packageHistory.length === 0
                  ? [t.detail.noPackage]
                  : data.packageHistory.map(
                      (h) =>
                        `${formatDateTime(h.createdAt)} — ${h.actionLabel}${h.user ? ` (${h.user.fullName})` : ''}${h.comment ? `: ${h.comment}` : ''}`,
                    )
              }
            />
            {data.rejections.length > 0 && (
              <Section
                title={t.detail.rejections}
                lines={data.rejections.map((r) =>
                  t.detail.rejectionLine(
                    formatDateTime(r.rejectedAt),
                    r.packageNumber,
                    r.reason,
                    r.rejectedBy?.fullName ?? null,
                  ),
                )}
              />
            )}
            {data.correctedAt && (
              <Typography variant="body2" color="text.secondary">
                {t.detail.corrected(formatDateTime(data.correctedAt))}
              </Typography>
            )}
            <Box>
              <Button onClick={onClose}>{texts.common.close}</Button>
            </Box>
            {correcting && <CorrectEventDialog event={data} onClose={() => setCorrecting(false)} />}
          </Stack>
        )}
      </Box>
    </Drawer>
  );
}

function Section({ title, lines }: { title: string; lines: string[] }) {
  return (
    <div>
      <Typography variant="overline" color="text.secondary">
        {title}
      </Typography>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of text in a fixed order
        <Typography key={index} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {line}
        </Typography>
      ))}
    </div>
  );
}
