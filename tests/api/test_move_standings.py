"""A move's request works out the game's standings once (issue 15): the fragments it renders
ahead for the phones and its answer read the same rows, kept on the session for its state."""

from companion import engine, live, services, stats


def test_a_watched_tables_move_works_out_its_standings_once(as_bob, game, bob, monkeypatch):
    live.watch(game.pk)  # a phone watches: the move renders its fragments ahead
    worked_out = []
    standings_of = engine.standings_of

    def counted(rules, state):
        worked_out.append(state)
        return standings_of(rules, state)

    monkeypatch.setattr(engine, "standings_of", counted)
    response = as_bob.post(f"/api/sessions/{game.pk}/moves/",
                           {"type": "add", "seat": 1, "points": 3}, format="json")
    assert response.status_code == 201
    assert len(worked_out) == 1
    peter = next(row for row in response.json()["session"]["standings"]
                 if row["name"] == "Peter")
    assert peter["score"] == 3


def test_the_standings_kept_on_a_session_follow_its_state(game):
    first = stats.session_standings(game)
    assert stats.session_standings(game) is first
    services.move_play(session=game, type="add", data={"seat": 1, "points": 3},
                       actor=services.Actor.host(game))
    game.refresh_from_db()  # its state anew, from the move
    after = stats.session_standings(game)
    assert after is not first
    assert after == engine.standings_of(engine.get(game.game), game.state)
    assert [row["score"] for row in after] != [row["score"] for row in first]
