-- Saved views (issue #24 item 13): a user's named filters and sort of a list, kept as the list's URL
-- query string. Private to the user; they go with the user or the organisation.
CREATE TABLE saved_views (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  list text NOT NULL CHECK (list IN ('items', 'events', 'registry')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  query text NOT NULL CHECK (char_length(query) <= 2000),
  -- The view a list opens with when it is opened without a query string; one per user and list.
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Names are told apart regardless of case, as a person reads them in the menu; the index also
-- serves the menu's read (user, list).
CREATE UNIQUE INDEX saved_views_name ON saved_views (user_id, list, lower(name));
CREATE UNIQUE INDEX saved_views_default ON saved_views (user_id, list) WHERE is_default;
CREATE INDEX saved_views_organisation ON saved_views (organisation_id);
