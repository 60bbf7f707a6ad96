def test_roster_lists_own_players_only(as_alice, as_charlie):
    as_alice.post("/api/players/", {"name": "Peter"}, format="json")
    as_charlie.post("/api/players/", {"name": "Zed"}, format="json")
    assert [p["name"] for p in as_alice.get("/api/players/").json()["results"]] == ["Peter"]


def test_create_a_player(as_alice):
    response = as_alice.post("/api/players/", {"name": "Íñigo"}, format="json")
    assert response.status_code == 201
    assert response.json()["name"] == "Íñigo" and response.json()["id"]


def test_a_name_is_unique_per_host_in_any_case(as_alice, as_charlie):
    as_alice.post("/api/players/", {"name": "Peter"}, format="json")
    response = as_alice.post("/api/players/", {"name": "PETER"}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == "You already have a player called PETER."
    assert as_charlie.post("/api/players/", {"name": "peter"}, format="json").status_code == 201


def test_empty_name_is_refused(as_alice):
    assert as_alice.post("/api/players/", {"name": " "}, format="json").status_code == 400


def test_roster_needs_a_host(anonymous):
    assert anonymous.get("/api/players/").status_code == 401
    assert anonymous.post("/api/players/", {"name": "X"}, format="json").status_code == 401


def test_player_stats_count_results(as_alice, alice, game):
    for points in (10, 10):
        as_alice.post(f"/api/sessions/{game.pk}/moves/",
                      {"type": "add", "seat": 0, "points": points}, format="json")
    vanessa = game.seats.get(index=0).player
    body = as_alice.get(f"/api/players/{vanessa.pk}/stats/").json()
    assert (body["plays"], body["wins"], body["win_rate"]) == (1, 1, 1.0)
    assert body["games"]["tiny"] == {"plays": 1, "wins": 1, "best": 20.0, "average": 20.0}


def test_other_hosts_players_are_404(as_charlie, game):
    vanessa = game.seats.get(index=0).player
    assert as_charlie.get(f"/api/players/{vanessa.pk}/stats/").status_code == 404


def test_game_stats(as_alice, game):
    for points in (10, 10):
        as_alice.post(f"/api/sessions/{game.pk}/moves/",
                      {"type": "add", "seat": 0, "points": points}, format="json")
    body = as_alice.get("/api/games/tiny/stats/").json()
    assert body["plays"] == 1
    assert body["records"][0]["score"] == 20.0 and body["records"][0]["name"] == "Vanessa"
    # An address that names no game: nothing is there (it was a 400).
    unknown = as_alice.get("/api/games/chess/stats/")
    assert unknown.status_code == 404 and "chess" in unknown.json()["detail"]
