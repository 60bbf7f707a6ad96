"""A move's answer works out the game's standings once."""

from companion import engine


def test_a_moves_answer_works_out_its_standings_once(as_bob, game, bob, monkeypatch):
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
