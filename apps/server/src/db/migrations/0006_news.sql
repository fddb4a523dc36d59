-- Product news: platform-wide items written by platform staff, and each user's read marks.

CREATE TABLE news_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  -- Markdown; the web app renders it without raw HTML.
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
  pinned boolean NOT NULL DEFAULT false,
  draft boolean NOT NULL DEFAULT false,
  -- Set when the item is first published; a draft that was never published has none.
  published_at timestamptz,
  author_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (draft OR published_at IS NOT NULL)
);
CREATE INDEX news_items_feed_idx ON news_items (pinned DESC, published_at DESC, id DESC) WHERE NOT draft;

CREATE TABLE news_reads (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  news_id uuid NOT NULL REFERENCES news_items (id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, news_id)
);
CREATE INDEX news_reads_news_idx ON news_reads (news_id);
