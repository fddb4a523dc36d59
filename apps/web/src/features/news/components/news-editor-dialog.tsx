import { zodResolver } from '@hookform/resolvers/zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { createNewsBodySchema, NEWS_BODY_MAX, NEWS_TITLE_MAX, type NewsItem } from '@pledgewatch/contract';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { FormAlert } from '@/components/ui/form-alert';
import { texts } from '@/features/news/texts';
import { applyServerErrors } from '@/lib/form-errors';
import { useCreateNews } from '../api/create-news';
import { useUpdateNews } from '../api/update-news';
import { NewsMarkdown } from './news-markdown';

const t = texts.news;
const FIELDS = ['title', 'body', 'pinned', 'draft'] as const;
type Values = { title: string; body: string; pinned: boolean; draft: boolean };
const EMPTY: Values = { title: '', body: '', pinned: false, draft: false };

type NewsEditorDialogProps = {
  open: boolean;
  /** The item to edit; null writes a new one. */
  news: NewsItem | null;
  onClose: () => void;
};

/** Staff write a news item in Markdown and check the preview before publishing. */
export function NewsEditorDialog({ open, news, onClose }: NewsEditorDialogProps) {
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateNews();
  const update = useUpdateNews();
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(createNewsBodySchema), defaultValues: EMPTY });
  const [body, draft] = useWatch({ control, name: ['body', 'draft'] });

  useEffect(() => {
    if (open) {
      reset(news ? { title: news.title, body: news.body, pinned: news.pinned, draft: news.draft } : EMPTY);
      setTab('write');
      setFormError(null);
    }
  }, [open, news, reset]);

  const onSubmit = handleSubmit(
    (values) => {
      setFormError(null);
      const handlers = {
        onSuccess: () => {
          toast.success(news ? t.updated : values.draft ? t.draftSaved : t.published);
          onClose();
        },
        onError: (error: Error) => {
          setFormError(applyServerErrors(error, setError, FIELDS));
          setTab('write');
        },
      };
      if (news) {
        update.mutate({ id: news.id, data: values }, handlers);
      } else {
        create.mutate(values, handlers);
      }
    },
    () => setTab('write'),
  );

  const submitLabel = draft ? t.saveDraft : news && !news.draft ? t.save : t.publish;

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="news-editor-title">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="news-editor-title">{news ? t.editTitle : t.createTitle}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormAlert message={formError} />
            <TextField
              {...register('title')}
              label={t.fieldTitle}
              autoFocus
              required
              error={Boolean(errors.title)}
              helperText={errors.title?.message}
              slotProps={{ htmlInput: { maxLength: NEWS_TITLE_MAX } }}
            />
            <Box>
              <Tabs value={tab} onChange={(_, value) => setTab(value)} sx={{ mb: 1.5 }}>
                <Tab value="write" label={t.tabWrite} />
                <Tab value="preview" label={t.tabPreview} />
              </Tabs>
              <Box hidden={tab !== 'write'}>
                <TextField
                  {...register('body')}
                  label={t.fieldBody}
                  required
                  fullWidth
                  multiline
                  minRows={8}
                  maxRows={20}
                  error={Boolean(errors.body)}
                  helperText={errors.body?.message ?? t.bodyHint}
                  slotProps={{ htmlInput: { maxLength: NEWS_BODY_MAX } }}
                />
              </Box>
              {tab === 'preview' && (
                <Paper variant="outlined" sx={{ p: 2, minHeight: 200 }} data-testid="news-preview">
                  {body.trim() ? (
                    <NewsMarkdown source={body} />
                  ) : (
                    <Typography color="text.secondary">{t.previewEmpty}</Typography>
                  )}
                </Paper>
              )}
            </Box>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 3 }}>
              <Controller
                control={control}
                name="pinned"
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={field.value}
                        onChange={(event) => field.onChange(event.target.checked)}
                      />
                    }
                    label={t.pinned}
                  />
                )}
              />
              <Controller
                control={control}
                name="draft"
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={field.value}
                        onChange={(event) => field.onChange(event.target.checked)}
                      />
                    }
                    label={t.draft}
                  />
                )}
              />
            </Stack>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{texts.common.cancel}</Button>
          <Button type="submit" variant="contained" loading={create.isPending || update.isPending}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
