def test_games_lists_every_registered_game_without_auth(anonymous):
    response = anonymous.get("/api/games/")
    assert response.status_code == 200
    tiny = next(game for game in response.json() if game["slug"] == "tiny")
    assert tiny == {"slug": "tiny", "name": "Tiny", "min_players": 1, "max_players": 4,
                    "options": {"target": 20}, "first_option": None, "moves": ["add", "roll"]}


def test_health_is_one_query(anonymous, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = anonymous.get("/api/health/")
    assert response.status_code == 200 and response.json()["ok"] is True
