"""Don Quixote's round and category sums per host, kept by PostgreSQL (companion/stats.py).

The averages of each round and scoring category read 21 numbers out of every Quixote Result's
JSON details; over ~73,000 results that is ~250 ms even aggregated in the database, and no index
can answer it (PostgreSQL does not scan expression indexes index-only). So a trigger keeps, per
(owner, game), the number of rows and the sum and count of each of the 21 values: a finish adds,
an undo (a delete) subtracts, a TRUNCATE empties it. Reading it is one row.

Also read-side indexes for the other cold game figures: the solitaire results (personal bests)
and the finished sessions' lengths, both index-only.

PostgreSQL only (on SQLite the selectors aggregate the JSON directly; its data is small). The
models are untouched: this is plain SQL with a reverse.
"""

from django.db import migrations

SLOTS = 21  # 3 rounds x (round total + 6 categories); see companion.stats.ROUND_SLOTS

FORWARD = [
    """
    CREATE TABLE IF NOT EXISTS companion_result_rounds (
        owner_id integer NOT NULL,
        game varchar(30) NOT NULL,
        results bigint NOT NULL,
        sums numeric[] NOT NULL,
        counts bigint[] NOT NULL,
        PRIMARY KEY (owner_id, game)
    )
    """,
    """
    CREATE OR REPLACE FUNCTION companion_result_rounds_apply(p_owner integer, p_game varchar,
                                                             p_details jsonb, p_sign integer)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        sums numeric[] := array_fill(0::numeric, ARRAY[21]);
        counts bigint[] := array_fill(0::bigint, ARRAY[21]);
        keys text[] := ARRAY['total', 'castle6', 'castle4', 'churches', 'windmills', 'defense',
                             'knights'];
        value jsonb;
        slot integer := 0;
        round integer;
        key text;
    BEGIN
        FOR round IN 0..2 LOOP
            FOREACH key IN ARRAY keys LOOP
                slot := slot + 1;
                IF key = 'total' THEN
                    value := p_details #> ARRAY['round_totals', round::text];
                ELSE
                    value := p_details #> ARRAY['rounds', round::text, key];
                END IF;
                IF jsonb_typeof(value) = 'number' THEN
                    sums[slot] := p_sign * value::numeric;
                    counts[slot] := p_sign;
                END IF;
            END LOOP;
        END LOOP;
        INSERT INTO companion_result_rounds AS t (owner_id, game, results, sums, counts)
        VALUES (p_owner, p_game, p_sign, sums, counts)
        ON CONFLICT (owner_id, game) DO UPDATE SET
            results = t.results + EXCLUDED.results,
            sums = ARRAY(SELECT a + b FROM unnest(t.sums, EXCLUDED.sums)
                         WITH ORDINALITY AS u(a, b, i) ORDER BY i),
            counts = ARRAY(SELECT a + b FROM unnest(t.counts, EXCLUDED.counts)
                           WITH ORDINALITY AS u(a, b, i) ORDER BY i);
        DELETE FROM companion_result_rounds
        WHERE owner_id = p_owner AND game = p_game AND results = 0;
    END
    $$
    """,
    """
    CREATE OR REPLACE FUNCTION companion_result_rounds_row() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.game = 'quixote' THEN
            PERFORM companion_result_rounds_apply(OLD.owner_id, OLD.game, OLD.details, -1);
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.game = 'quixote' THEN
            PERFORM companion_result_rounds_apply(NEW.owner_id, NEW.game, NEW.details, 1);
        END IF;
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE OR REPLACE FUNCTION companion_result_rounds_truncate() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM companion_result_rounds;
        RETURN NULL;
    END
    $$
    """,
    "DROP TRIGGER IF EXISTS companion_result_rounds_row ON companion_result",
    """
    CREATE TRIGGER companion_result_rounds_row
    AFTER INSERT OR DELETE OR UPDATE OF owner_id, game, details ON companion_result
    FOR EACH ROW EXECUTE FUNCTION companion_result_rounds_row()
    """,
    "DROP TRIGGER IF EXISTS companion_result_rounds_truncate ON companion_result",
    """
    CREATE TRIGGER companion_result_rounds_truncate AFTER TRUNCATE ON companion_result
    FOR EACH STATEMENT EXECUTE FUNCTION companion_result_rounds_truncate()
    """,
    "LOCK TABLE companion_result IN SHARE MODE",
    "DELETE FROM companion_result_rounds",
    # The backfill, set-based (one upsert per result would rewrite one row 73,000 times).
    """
    INSERT INTO companion_result_rounds (owner_id, game, results, sums, counts)
    SELECT owner_id, game, COUNT(*),
           ARRAY(SELECT 0::numeric FROM generate_series(1, 21)),
           ARRAY(SELECT 0::bigint FROM generate_series(1, 21))
    FROM companion_result WHERE game = 'quixote' GROUP BY owner_id, game
    """,
    """
    WITH slot AS (
        SELECT (r * 7 + k) + 1 AS i,
               CASE WHEN k = 0 THEN ARRAY['round_totals', r::text]
                    ELSE ARRAY['rounds', r::text,
                               (ARRAY['castle6', 'castle4', 'churches', 'windmills', 'defense',
                                      'knights'])[k]] END AS path
        FROM generate_series(0, 2) AS r, generate_series(0, 6) AS k
    ), value AS (
        SELECT res.owner_id, res.game, slot.i, res.details #> slot.path AS v
        FROM companion_result res, slot WHERE res.game = 'quixote'
    ), total AS (
        SELECT owner_id, game, i,
               COALESCE(SUM(v::numeric) FILTER (WHERE jsonb_typeof(v) = 'number'), 0) AS s,
               COUNT(*) FILTER (WHERE jsonb_typeof(v) = 'number') AS c
        FROM value GROUP BY owner_id, game, i
    )
    UPDATE companion_result_rounds t
    SET sums = agg.sums, counts = agg.counts
    FROM (SELECT owner_id, game, array_agg(s ORDER BY i) AS sums,
                 array_agg(c ORDER BY i) AS counts
          FROM total GROUP BY owner_id, game) agg
    WHERE t.owner_id = agg.owner_id AND t.game = agg.game
    """,
    # The solitaire results (personal bests): a few percent of the Quixote rows.
    """
    CREATE INDEX IF NOT EXISTS result_stats_solitaire
    ON companion_result (owner_id, game, player_id, finished_at, session_id, score)
    INCLUDE (name) WHERE details ? 'rating'
    """,
    # A game's finished sessions and their lengths, index-only.
    """
    CREATE INDEX IF NOT EXISTS session_stats_length
    ON companion_session (owner_id, game, status, created_at, finished_at)
    """,
]

BACKWARD = [
    "DROP INDEX IF EXISTS session_stats_length",
    "DROP INDEX IF EXISTS result_stats_solitaire",
    "DROP TRIGGER IF EXISTS companion_result_rounds_truncate ON companion_result",
    "DROP TRIGGER IF EXISTS companion_result_rounds_row ON companion_result",
    "DROP FUNCTION IF EXISTS companion_result_rounds_truncate()",
    "DROP FUNCTION IF EXISTS companion_result_rounds_row()",
    "DROP FUNCTION IF EXISTS companion_result_rounds_apply(integer, varchar, jsonb, integer)",
    "DROP TABLE IF EXISTS companion_result_rounds",
]


def run(statements):
    def operation(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for statement in statements:
            schema_editor.execute(statement)

    return operation


class Migration(migrations.Migration):

    dependencies = [("companion", "0002_stats_indexes")]

    operations = [migrations.RunPython(run(FORWARD), run(BACKWARD))]
