import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { SearchGroup } from '@pledgewatch/contract';
import { Link as RouterLink } from 'react-router';
import { texts } from '@/features/search/texts';
import { formatDateTime } from '@/lib/format';
import { groupHref, hitHref } from './hit-href';

const t = texts.search;

export const RESULTS_ID = 'header-search-results';
export const optionId = (index: number) => `header-search-option-${index}`;

/**
 * The groups with hits, each with its count and (where its list searches the same text) a link to
 * the whole list; options are numbered across groups for the keyboard.
 */
export function SearchResults({
  groups,
  query,
  active,
  onActivate,
  onOpen,
}: {
  groups: SearchGroup[];
  query: string;
  active: number;
  onActivate: (index: number) => void;
  onOpen: () => void;
}) {
  let index = -1;
  return (
    <Box role="listbox" id={RESULTS_ID} aria-label={t.label} sx={{ py: 1 }}>
      {groups.map((group) => {
        const all = groupHref(group, query);
        const headingId = `header-search-group-${group.kind}`;
        return (
          <Box
            key={group.kind}
            role="group"
            aria-labelledby={headingId}
            sx={{ mb: 1.5 }}
            data-testid="search-group"
          >
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 0.5, flexWrap: 'wrap' }}>
              <Typography id={headingId} variant="overline" sx={{ lineHeight: 1.6 }}>
                {group.label}
              </Typography>
              <Chip size="small" label={t.count(group.total, group.more)} data-testid="search-group-count" />
              {all && (
                <Link component={RouterLink} to={all} onClick={onOpen} variant="body2" sx={{ ml: 'auto' }}>
                  {t.showAll}
                </Link>
              )}
            </Box>
            {group.hits.map((hit) => {
              index += 1;
              const position = index;
              const selected = position === active;
              return (
                <Box
                  key={hit.id}
                  component={RouterLink}
                  to={hitHref(group.kind, hit)}
                  id={optionId(position)}
                  role="option"
                  aria-selected={selected}
                  onClick={onOpen}
                  onMouseMove={() => onActivate(position)}
                  sx={{
                    display: 'block',
                    px: 2,
                    py: 0.75,
                    color: 'text.primary',
                    textDecoration: 'none',
                    bgcolor: selected ? 'action.selected' : undefined,
                    minWidth: 0,
                  }}
                >
                  <Typography
                    variant="body2"
                    sx={{ fontWeight: 600, fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                  >
                    {hit.title}
                  </Typography>
                  {(hit.details || hit.at) && (
                    <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {[hit.details, hit.at ? formatDateTime(hit.at) : null].filter(Boolean).join(' · ')}
                    </Typography>
                  )}
                </Box>
              );
            })}
          </Box>
        );
      })}
    </Box>
  );
}
