import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type ApiKey, ROLE_LABELS } from '@pledgewatch/contract';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { texts } from '../texts';
import { CreateApiKeyDialog } from './create-api-key-dialog';

const t = texts.apiKeys;
const STATUS_COLOR = { active: 'success', expired: 'default', revoked: 'default' } as const;

/** Настройки → Ключи API: the organisation's keys, with creating and revoking. */
export function ApiKeysPanel() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t.intro}
      </Typography>
      <div>
        <Button variant="contained" onClick={() => setCreating(true)}>
          {t.create}
        </Button>
      </div>
      {keys.isError && <Alert severity="error">{getErrorMessage(keys.error)}</Alert>}
      {keys.data && keys.data.items.length === 0 && <Typography color="text.secondary">{t.empty}</Typography>}
      {keys.data && keys.data.items.length > 0 && (
        <TableContainer>
          <Table size="small" aria-label={t.heading}>
            <TableHead>
              <TableRow>
                {Object.entries(t.columns).map(([id, label]) => (
                  <TableCell key={id}>{label}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {keys.data.items.map((key) => (
                <TableRow key={key.id}>
                  <TableCell>{key.name}</TableCell>
                  <TableCell>{ROLE_LABELS[key.role]}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{key.prefix}…</TableCell>
                  <TableCell>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : t.never}</TableCell>
                  <TableCell>{key.expiresAt ? formatDateTime(key.expiresAt) : t.unlimited}</TableCell>
                  <TableCell>
                    <Chip size="small" color={STATUS_COLOR[key.status]} label={t.status[key.status]} />
                  </TableCell>
                  <TableCell align="right">
                    {key.status !== 'revoked' && (
                      <Button color="error" size="small" onClick={() => setRevoking(key)}>
                        {t.revoke}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={revoking !== null}
        title={t.revokeTitle}
        message={revoking ? t.revokeMessage(revoking.name) : ''}
        confirmLabel={t.revoke}
        danger
        pending={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.id, {
            onSuccess: () => {
              toast.success(t.revoked);
              setRevoking(null);
            },
            onError: (error) => toast.error(getErrorMessage(error)),
          })
        }
      />
    </Stack>
  );
}
