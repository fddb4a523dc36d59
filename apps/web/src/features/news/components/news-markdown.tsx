import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * Every link leaves the app in a new tab without handing it our window. `javascript:` and other
 * unsafe URLs were already emptied by react-markdown's default URL transform.
 */
const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <Link href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </Link>
    ) : (
      <span>{children}</span>
    ),
  // An image whose unsafe URL was emptied shows its description instead of an <img src="">, which
  // a browser would answer by loading the page itself again.
  img: ({ src, alt }) => (src ? <img src={src} alt={alt ?? ''} /> : <span>{alt}</span>),
  // Headings inside a news item sit below its own title.
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
};

/**
 * A news body in Markdown (GFM). Raw HTML is dropped, never rendered: there is no rehype-raw, and
 * `skipHtml` keeps tags out of the text too.
 */
export function NewsMarkdown({ source }: { source: string }) {
  return (
    <Box
      data-testid="news-body"
      sx={{
        typography: 'body1',
        overflowWrap: 'anywhere',
        '& > :first-of-type': { mt: 0 },
        '& > :last-child': { mb: 0 },
        '& p, & ul, & ol, & blockquote, & pre, & table': { my: 1 },
        '& ul, & ol': { pl: 3 },
        '& h3, & h4, & h5, & h6': { mt: 2, mb: 1, fontWeight: 600 },
        '& code': {
          fontFamily: 'monospace',
          fontSize: '0.9em',
          px: 0.5,
          borderRadius: 0.5,
          bgcolor: 'action.hover',
        },
        '& pre': { p: 1.5, overflowX: 'auto', borderRadius: 1, bgcolor: 'action.hover' },
        '& pre code': { p: 0, bgcolor: 'transparent' },
        '& blockquote': { pl: 2, ml: 0, borderLeft: 3, borderColor: 'divider', color: 'text.secondary' },
        '& img': { maxWidth: '100%' },
        '& table': { borderCollapse: 'collapse' },
        '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5 },
      }}
    >
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {source}
      </Markdown>
    </Box>
  );
}
