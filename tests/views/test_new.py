import re

import pytest

from companion.models import Session
from tests.views.helpers import assert_phone_ready, browser_for


def test_choosing_a_game_then_opening_it(alice):
    client = browser_for(alice)
    listing = client.get("/new/")
    assert_phone_ready(listing)
    assert "?game=tiny" in listing.content.decode()
    form = client.get("/new/?game=tiny")
    assert 'name="opt_target"' in form.content.decode()
    response = client.post("/new/", {"game": "tiny", "name": ["Vanessa", "Peter", ""],
                                     "opt_target": "30"})
    session = Session.objects.get()
    assert response.status_code == 302 and response.url == f"/s/{session.pk}/"
    assert session.options == {"target": 30}
    assert list(session.seats.values_list("name", flat=True)) == ["Vanessa", "Peter"]


def test_a_refused_session_is_said_next_to_the_form(alice):
    response = browser_for(alice).post("/new/", {"game": "tiny", "name": ["A", "B"],
                                                 "opt_target": "zero"})
    assert response.status_code == 400
    assert "zero is not a whole number" in response.content.decode()
    assert not Session.objects.exists()


def test_new_needs_a_host(db):
    response = browser_for().get("/new/")
    assert response.status_code == 302 and response.url.startswith("/login/")


def test_unknown_game_is_404(alice):
    assert browser_for(alice).get("/new/?game=chess").status_code == 404


def test_declared_options_are_radios_switches_and_seats_with_help(alice):
    page = browser_for(alice).get("/new/?game=knights").content.decode()
    # The deck is a choice of two, in words; Merlin (who starts) one of the seats or a draw; the
    # joust a switch.
    assert 'type="radio" name="opt_deck" value="app" checked' in page
    assert "We turn the real cards and enter the event" in page
    assert '<option value="0" selected>Player 1</option>' in page and "Player 3" in page
    assert '<option value="draw">A draw: the app picks, and the log tells who</option>' in page
    assert 'type="checkbox" name="opt_joust" checked' in page
    assert "The oldest player starts as Merlin" in page
    # The developer's lists are folded away, not shown as {} or None.
    assert '<details class="more-options">' in page
    assert "{}" not in page and "None" not in page.split("<form")[1].split("</form>")[0]


def test_a_posted_choice_seat_and_switch_become_the_api_values(alice):
    client = browser_for(alice)
    response = client.post("/new/", {"game": "knights", "name": ["A", "B", "C"],
                                     "opt_deck": "table", "opt_merlin": "2",
                                     "opt_knights": "", "opt_damosels": "", "opt_events": ""})
    session = Session.objects.get()
    assert response.status_code == 302
    assert session.options["deck"] == "table" and session.options["merlin"] == 2
    assert session.options["joust"] is False  # an unticked switch
    assert session.options["events"] == {}


def test_a_choice_that_is_not_offered_is_refused_with_a_sentence(alice):
    response = browser_for(alice).post("/new/", {"game": "quixote", "name": ["A"],
                                                 "opt_deck": "cloud"})
    assert response.status_code == 400
    assert "Position cards: cloud is not one of the choices." in response.content.decode()
    assert not Session.objects.exists()


MUS = {"game": "pad", "name": ["Ana", "Ben", "Íñigo", "Dolores"], "opt_game": "Mus",
       "opt_win": "high"}


@pytest.mark.parametrize("written", ["1 3\n2 4", "1 y 3, 2 y 4", "1+3; 2 & 4", " 1 3 3 , 2 4 "])
def test_teams_are_written_as_the_form_numbers_its_players(alice, written):
    response = browser_for(alice).post("/new/", {**MUS, "opt_teams": written})
    assert response.status_code == 302
    assert Session.objects.get().options["teams"] == [[0, 2], [1, 3]]


def test_the_teams_field_asks_for_player_numbers_not_json(alice):
    page = browser_for(alice).get("/new/?game=pad").content.decode()
    assert "1 3, 2 4 puts players 1 and 3 against 2 and 4" in page
    assert "[[0" not in page and "counted from 0" not in page
    # Nothing written yet: the fold stays closed.
    assert '<details class="more-options">' in page


@pytest.mark.parametrize(("written", "said"), [
    ("1 3, 2 5", "Teams: there is no player 5; the players are numbered 1 to 4."),
    ("1 3, 3 2", "Teams: Íñigo is in two teams; a player plays for one team."),
    ("1 x 3", "Teams: write each team&#x27;s player numbers, such as 1 3, 2 4 (&#x27;x&#x27; is "
              "not a player&#x27;s number)."),
])
def test_teams_written_wrong_are_said_in_the_forms_words_and_shown_again(alice, written, said):
    response = browser_for(alice).post("/new/", {**MUS, "opt_teams": written})
    page = response.content.decode()
    assert response.status_code == 400
    assert said in page
    assert not Session.objects.exists()
    # The fold that holds the field is open, with what was written in it.
    assert '<details class="more-options" open>' in page
    assert f">{written}</textarea>" in page


def test_teams_written_wrong_are_said_in_spanish(alice):
    client = browser_for(alice)
    client.cookies["django_language"] = "es"
    response = client.post("/new/", {**MUS, "opt_teams": "1 3, 2 5"})
    assert "Equipos: no hay participante 5; se numeran del 1 al 4." in response.content.decode()


def test_a_refused_option_is_named_in_the_pages_language(alice):
    client = browser_for(alice)
    client.cookies["django_language"] = "es"
    response = client.post("/new/", {**MUS, "opt_rounds": "dos"})
    assert response.status_code == 400
    assert "Terminar tras este número de rondas: dos no es un número entero." in (
        response.content.decode())


KNIGHTS_TABLE = {"game": "knights", "name": ["Ana", "Ben", "Cy"], "opt_deck": "app",
                 "opt_merlin": "0", "opt_joust": "on", "opt_events": ""}


def test_knights_and_damosels_by_seat_are_names_between_commas(alice):
    page = browser_for(alice).get("/new/?game=knights").content.decode()
    assert "such as Bors, Gawain, Launcelot" in page and "[&quot;Bors" not in page
    response = browser_for(alice).post("/new/", {
        **KNIGHTS_TABLE, "opt_knights": "tristram, Bors,GAWAIN",
        "opt_damosels": "Nimue\nElaine\nisolde"})
    assert response.status_code == 302
    options = Session.objects.get().options
    assert options["knights"] == ["Tristram", "Bors", "Gawain"]
    assert options["damosels"] == ["Nimue", "Elaine", "Isolde"]


def test_a_knight_the_game_does_not_know_is_said_with_the_ones_it_does(alice):
    response = browser_for(alice).post("/new/", {**KNIGHTS_TABLE,
                                                 "opt_knights": "Lancelot, Bors, Gawain"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "There is no knight called &#x27;Lancelot&#x27; (the knights: Bors, Gawain," in page
    assert ">Lancelot, Bors, Gawain</textarea>" in page
    assert not Session.objects.exists()


def test_teams_with_no_player_named_yet_ask_for_the_players(alice):
    response = browser_for(alice).post("/new/", {**MUS, "name": ["", ""], "opt_teams": "1, 1"})
    assert response.status_code == 400
    assert 'role="alert">Name the players.<' in response.content.decode()
    assert not Session.objects.exists()


def merlin_choice(page):
    """Knights' "Who starts?": who is Merlin in the first round."""
    return page.split('<select id="opt_merlin"')[1].split("</select>")[0]


def test_another_player_adds_a_row_and_its_seat_without_script(alice):
    # Six knights at most, four rows at first: Merlin is one of the rows shown.
    client = browser_for(alice)
    page = client.get("/new/?game=knights").content.decode()
    assert page.count('name="name"') == 4 and 'name="another"' in page
    merlin = merlin_choice(page)  # asked as who starts
    assert '<option value="3"' in merlin and '<option value="4"' not in merlin
    # "Another player" posts the form: shown again as written, one row longer, the cursor in
    # the new row, nothing checked (Merlin's fifth seat is not yet a player) and nothing opened.
    response = client.post("/new/", {**KNIGHTS_TABLE, "opt_merlin": "4", "another": "1",
                                     "name": ["A", "B", "C", ""]})
    page = response.content.decode()
    assert response.status_code == 200 and not Session.objects.exists()
    assert page.count('name="name"') == 5 and 'role="alert"' not in page
    assert 'id="name5" name="name" value=""' in page
    assert re.search(r'<input id="name5"[^>]* autofocus', page)
    assert '<option value="4" selected' in merlin_choice(page) and "Player 5" in page
    assert 'value="A"' in page and 'type="radio" name="opt_deck" value="app" checked' in page
    response = client.post("/new/", {**KNIGHTS_TABLE, "opt_merlin": "4",
                                     "name": ["A", "B", "C", "D", "E"]})
    assert response.status_code == 302
    assert Session.objects.get().options["merlin"] == 4


def test_the_rows_grow_to_the_games_seats_and_no_further(alice):
    client = browser_for(alice)
    names = [f"P{n}" for n in range(1, 12)]
    page = client.post("/new/", {**MUS, "name": names, "another": "1"}).content.decode()
    assert page.count('name="name"') == 12 and 'name="another"' not in page
    page = client.post("/new/", {**MUS, "name": [*names, "P12"], "another": "1"}).content.decode()
    assert page.count('name="name"') == 12
    # A game of four at most shows its four rows, and no button.
    page = client.get("/new/?game=rabbits").content.decode()
    assert page.count('name="name"') == 4 and 'name="another"' not in page


def test_another_player_by_htmx_is_answered_with_the_form_alone(alice):
    response = browser_for(alice).post("/new/", {**MUS, "name": ["Ana", "", "", ""],
                                                 "another": "1"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<form method="post" action="/new/"')
    assert 'id="new-game"' in page and "<header" not in page
    assert page.count('name="name"') == 5 and 'value="Ana"' in page and 'value="Mus"' in page


def test_a_seat_choice_past_the_named_players_is_said_by_the_forms_numbers(alice):
    response = browser_for(alice).post("/new/", {**KNIGHTS_TABLE, "opt_merlin": "4",
                                                 "name": ["A", "B", "C", "D"]})
    assert response.status_code == 400
    assert ("Merlin in the first round: there is no player 5; the players are numbered 1 to 4."
            in response.content.decode())
    assert not Session.objects.exists()


def test_a_gap_between_the_players_is_refused(alice):
    # The seat and team choices number the players as the form's fields do: a gap would shift
    # every player after it.
    response = browser_for(alice).post("/new/", {**MUS, "name": ["Ana", "", "Íñigo"],
                                                 "opt_teams": "1 3"})
    assert response.status_code == 400
    assert ("Player 2 is empty but a later one is not: write the players in order, with no gap."
            in response.content.decode())
    assert not Session.objects.exists()


@pytest.mark.parametrize(("host_seat", "said"), [
    ("5", "Your seat: there is no player 6; the players are numbered 1 to 4."),
    ("x", "Your seat: choose one of the players."),
])
def test_the_hosts_seat_is_refused_in_the_forms_words(alice, host_seat, said):
    response = browser_for(alice).post("/new/", {**MUS, "host_seat": host_seat})
    assert response.status_code == 400
    assert f'role="alert">{said}<' in response.content.decode()
    assert not Session.objects.exists()


def test_many_seats_are_a_list_to_pick_from(alice):
    # The score pad's twelve: a list, even of its first four rows.
    page = browser_for(alice).get("/new/?game=pad").content.decode()
    assert '<select id="opt_first" name="opt_first">' in page
    assert '<option value="3">Player 4</option>' in page and '<option value="4">' not in page
    response = browser_for(alice).post("/new/", {**MUS, "opt_first": "3"})
    assert response.status_code == 302
    assert Session.objects.get().options["first"] == 3


def posted(text):
    from django.http import QueryDict

    return QueryDict(text)


def test_the_form_has_a_field_of_its_kind_per_declared_option():
    from companion import plugins, setup_form

    form = setup_form.NewGameForm(plugins.rules_of("pad"))
    # The game's name first: the score pad cannot be set up without it.
    assert list(form.fields) == ["opt_game", "name", "opt_win", "opt_rounds", "opt_target",
                                 "opt_teams", "opt_first", "host_seat", "location", "language",
                                 "group"]
    kinds = {name: type(field).__name__ for name, field in form.fields.items()}
    assert kinds["opt_game"] == "TextOption" and kinds["opt_win"] == "ChoiceOption"
    assert kinds["opt_teams"] == "TeamsOption" and kinds["opt_first"] == "FirstOption"
    rounds = form.fields["opt_rounds"]
    assert type(rounds).__name__ == "WholeNumberOption"
    assert rounds.widget.attrs == {"min": 1, "max": rounds.option.maximum}
    assert [value for value, _label in form["opt_first"].choices] == [str(i) for i in range(4)]
    knights = setup_form.NewGameForm(plugins.rules_of("knights"))
    assert type(knights.fields["opt_joust"]).__name__ == "SwitchOption"
    assert knights["opt_joust"].value() == "on" and knights["opt_deck"].value() == "app"
    # An option a game does not declare is a field of the type of its default.
    tiny = setup_form.NewGameForm(plugins.rules_of("tiny"))
    assert type(tiny.fields["opt_target"]).__name__ == "WholeNumberOption"


def test_the_cleaned_form_is_what_the_service_takes(alice):
    from companion import plugins, services, setup_form

    form = setup_form.NewGameForm(plugins.rules_of("pad"), posted(
        "name=Ana&name=Ben&name=&opt_game=Mus&opt_win=low&opt_rounds=&opt_teams=1+2"
        "&opt_first=1&host_seat=1&location=+Bar+&language=es"))
    assert form.is_valid() and form.refusal() is None
    assert form.cleaned_data == {
        "players": ["Ana", "Ben"], "host_seat": 1, "location": " Bar ", "language": "es",
        "group": None, "options": {"game": "Mus", "win": "low", "rounds": None, "teams": [[0, 1]],
                    "first": 1}}
    session = services.session_create(owner=alice, game="pad", **form.cleaned_data)
    assert (session.title, session.location, session.host_seat) == ("Mus", "Bar", 1)


def test_options_left_out_keep_the_defaults_and_are_shown_again(alice):
    from companion import plugins, setup_form

    knights = plugins.rules_of("knights")
    form = setup_form.NewGameForm(knights, posted("name=A&name=B&name=C&opt_joust=yes"))
    assert form.is_valid()
    assert form.cleaned_data["options"] == {"joust": True}  # the rules add the defaults
    refused = setup_form.NewGameForm(knights, posted("name=A&name=B&name=C&opt_merlin=x"))
    assert refused.refusal() == "Merlin in the first round: choose one of the players."
    assert refused["opt_deck"].value() == "app" and refused["opt_joust"].value() == ""
    page = browser_for(alice).post("/new/", {"game": "knights", "name": ["A", "B", "C"],
                                             "opt_merlin": "x"}).content.decode()
    assert 'type="radio" name="opt_deck" value="app" checked' in page
    assert 'type="checkbox" name="opt_joust" checked' not in page


def test_the_first_thing_wrong_is_said_in_the_order_of_the_page(alice):
    from companion import plugins, setup_form

    form = setup_form.NewGameForm(plugins.rules_of("pad"), posted(
        "name=Ana&name=&name=Cy&opt_rounds=two&host_seat=x"))
    assert list(form.errors) == ["opt_game", "name", "opt_rounds", "host_seat"]
    assert form.refusal().startswith("Name the game you play")
    assert form.refused_field == "opt_game"
    named = setup_form.NewGameForm(plugins.rules_of("pad"), posted(
        "opt_game=Mus&name=Ana&name=&name=Cy&opt_rounds=two&host_seat=x"))
    assert list(named.errors) == ["name", "opt_rounds", "host_seat"]
    assert named.refusal().startswith("Player 2 is empty but a later one is not")
    assert named.refused_field == "name" and named.focus_row == 2


def test_the_score_pads_name_is_asked_first(alice):
    page = browser_for(alice).get("/new/?game=pad").content.decode()
    assert page.index('id="opt_game"') < page.index('id="name1"') < page.index('name="opt_win"')
    assert re.search(r'<input id="opt_game"[^>]* aria-required="true"', page)


def test_an_empty_name_is_refused_beside_its_field_with_the_cursor_in_it(alice):
    response = browser_for(alice).post("/new/", {**MUS, "opt_game": "  "})
    page = response.content.decode()
    assert response.status_code == 400 and not Session.objects.exists()
    field = re.search(r'<input id="opt_game"[^>]*>', page).group(0)
    assert " autofocus" in field and 'aria-invalid="true"' in field
    assert 'aria-describedby="opt_game_error opt_game_help"' in field
    refusal = '<p class="error" id="opt_game_error" role="alert">Name the game you play'
    # Right below the field, and nowhere else.
    assert page.index(refusal) - page.index(field) < 300 and page.count('role="alert"') == 1
    # Left out of the post, it is refused in the same place.
    page = browser_for(alice).post("/new/", {"game": "pad", "name": ["Ana"]}).content.decode()
    assert refusal in page


def test_the_services_refusal_of_the_players_is_said_beside_them(alice):
    response = browser_for(alice).post("/new/", {"game": "rabbits", "name": ["Ana", "", ""]})
    page = response.content.decode()
    assert response.status_code == 400
    assert ('<p class="error" id="name_error" role="alert">Lenino&#x27;s Jack Rabbits is played '
            'by 2 to 4 players, not 1.</p>') in page
    assert page.index("<legend>Players") < page.index('id="name_error"') < page.index('id="name1"')
    # The cursor where the missing player goes.
    assert re.search(r'<input id="name2"[^>]* autofocus aria-invalid="true" '
                     r'aria-describedby="name_error"', page)


def test_a_refusal_of_an_options_rule_is_said_at_the_forms_top(alice):
    response = browser_for(alice).post("/new/", {**MUS, "opt_win": "none", "opt_rounds": "3"})
    page = response.content.decode()
    assert response.status_code == 400
    assert '<p class="error" role="alert">A game without points has no target' in page
    assert page.index('role="alert"') < page.index('id="opt_game"')
    assert " autofocus" not in page


def test_each_player_row_offers_the_palette_with_distinct_colours_checked(alice):
    page = browser_for(alice).get("/new/?game=tiny").content.decode()
    checked = re.findall(r'name="(colour\d+)" value="(#[0-9a-f]{6})" checked', page)
    assert checked == [("colour1", "#e69f00"), ("colour2", "#56b4e9"), ("colour3", "#009e73"),
                       ("colour4", "#f0e442")]
    assert page.count('name="colour1"') == 8 and '<span class="sr-only">Sky blue</span>' in page


def test_the_colours_chosen_at_set_up_are_the_seats_colours(alice):
    response = browser_for(alice).post("/new/", {
        "game": "tiny", "name": ["Vanessa", "Peter", ""],
        "colour1": "#000000", "colour2": "#CC79A7", "colour3": "#e69f00"})
    assert response.status_code == 302
    assert list(Session.objects.get().seats.values_list("colour", flat=True)) == [
        "#000000", "#cc79a7"]


@pytest.mark.parametrize(("colours", "said"), [
    (("#0072b2", "#0072b2"), "Two seats have the same colour: give each seat its own."),
    (("#123456", ""), "A seat&#x27;s colour is one of #e69f00 (orange)"),
])
def test_a_refused_colour_is_said_in_the_apis_sentence_and_the_rows_kept(alice, colours, said):
    response = browser_for(alice).post("/new/", {
        "game": "tiny", "name": ["Vanessa", "Peter"],
        "colour1": colours[0], "colour2": colours[1]})
    page = response.content.decode()
    assert response.status_code == 400 and said in page
    assert 'value="Vanessa"' in page and not Session.objects.exists()
