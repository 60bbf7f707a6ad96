"""A move keeps its log line as its game made it, so that each reader reads it in their
language; lines of games played before that are made again by replaying them (migration 0009)."""

from importlib import import_module

from django.apps import apps
from django.utils import translation

from companion import services
from companion.actors import Actor
from companion.models import Move

backfill = import_module("companion.migrations.0009_move_message").lines_of_played_games


def play(game, alice, seat, points):
    return services.move_play(session=game, type="add", data={"seat": seat, "points": points},
                              actor=Actor(user=alice))


def test_a_move_keeps_its_line_in_english_and_as_its_message(alice, game):
    move = play(game, alice, 0, 3)
    move.refresh_from_db()
    assert move.summary == "Vanessa +3"
    assert move.message == {"id": "{name} +{gained}", "values": {"name": "Vanessa", "gained": 3}}
    assert move.line == "Vanessa +3"


def test_the_lines_of_older_games_are_made_again_by_replay(alice, game):
    play(game, alice, 0, 3)
    play(game, alice, 1, 5)
    services.move_undo(session=game, actor=Actor(user=alice))
    Move.objects.update(message=None)  # as a game played before lines were messages

    backfill(apps, None)

    lines = {move.seq: move.message for move in Move.objects.filter(session=game)}
    assert lines[1]["values"] == {"name": "Vanessa", "gained": 3}
    assert lines[2]["values"] == {"name": "Peter", "gained": 5}  # undone, still its own line


def test_a_stored_line_is_said_in_the_language_active_when_read(alice, game):
    played = play(game, alice, 0, 3)
    Move.objects.filter(pk=played.pk).update(message={"id": "This field is required.",
                                                       "values": {}})
    # Read anew, as every page and push reads its moves: the move that was played may have had
    # its line made already (the render ahead of a watched table shows it), and keeps it.
    move = Move.objects.get(pk=played.pk)
    with translation.override("es"):
        assert move.line.__html__() == "Este campo es obligatorio."
    assert move.line.__html__() == "This field is required."


roles_from_words = import_module("companion.migrations.0011_move_undone_by_role").roles_from_words


def test_an_undoer_kept_as_a_word_becomes_a_role_each_reader_says(alice, game):
    for seq, word in enumerate(("el anfitrión", "the host", "un móvil", "Peter"), start=1):
        move = play(game, alice, 0, seq)
        Move.objects.filter(pk=move.pk).update(undone=True, undone_by=word)

    roles_from_words(apps, None)

    kept = list(Move.objects.filter(session=game).order_by("seq")
                .values_list("undone_by", "undone_by_role"))
    assert kept == [("", "host"), ("", "host"), ("", "phone"), ("Peter", "")]
    with translation.override("en"):
        assert [str(move.undoer_first) for move in Move.objects.order_by("seq")] == [
            "The host", "The host", "A phone", "Peter"]


def run_forward(migration):
    """The migration's one operation, run forward on the test's database."""
    (operation,) = migration.Migration.operations
    operation.code(apps, None)


one_ducat = import_module("companion.migrations.0013_alatriste_one_ducat")


def test_a_turn_line_kept_with_an_old_message_id_is_said_in_spanish_again(alice):
    from tests.factories import session_for

    table = session_for(alice, game="alatriste", players=("Íñigo", "Quevedo"))
    host = Actor(user=alice)
    for seat in (0, 1):
        table.refresh_from_db()
        services.move_play(session=table, type="setup", data={"seat": seat, "fencing": 4,
                                                              "ducats": 6}, actor=host)
    table.refresh_from_db()
    turn = services.move_play(session=table, type="turn", data={"seat": 0}, actor=host)
    line = turn.message["parts"][0]  # the turn's line is a sentence of parts
    kept = {**turn.message, "parts": [{**line, "id": "{name}'s turn: +{n} ducats"}]}  # before
    Move.objects.filter(pk=turn.pk).update(message=kept)
    with translation.override("es"):
        assert Move.objects.get(pk=turn.pk).line.__html__() == "Íñigo&#x27;s turn: +1 ducats"

    run_forward(one_ducat)

    with translation.override("es"):
        assert Move.objects.get(pk=turn.pk).line.__html__() == "Turno de Íñigo: +1 ducado"
    assert Move.objects.get(pk=turn.pk).message == turn.message


card_of = import_module("companion.migrations.0014_knights_card_of")


def test_a_grant_line_kept_with_its_old_message_id_is_said_in_spanish_again(alice):
    from tests.factories import session_for

    table = session_for(alice, game="knights", players=("Ann", "Bob", "Cid"),
                        options={"deck": "table"})
    host = Actor(user=alice)
    for type, data in (("reveal_event", {"event": "Holy Grail"}),
                       ("grant", {"seat": 0, "damosel": "Guinevere", "chivalry": "honor"})):
        table.refresh_from_db()
        grant = services.move_play(session=table, type=type, data=data, actor=host)
    kept = {**grant.message, "id": "{knight} was granted a {chivalry} card"}  # before 0014
    Move.objects.filter(pk=grant.pk).update(message=kept)
    with translation.override("es"):
        assert "was granted a honor card" in Move.objects.get(pk=grant.pk).line.__html__()

    run_forward(card_of)

    with translation.override("es"):
        assert "se le otorgó una carta de honor" in Move.objects.get(pk=grant.pk).line.__html__()
    assert Move.objects.get(pk=grant.pk).message == grant.message


their_cards = import_module("companion.migrations.0016_alatriste_their_cards")


def test_a_saved_line_kept_with_its_old_message_id_is_said_in_spanish_again(alice):
    from tests.factories import session_for

    table = session_for(alice, game="alatriste", players=("Ana", "Quevedo"))
    setup = services.move_play(session=table, type="setup", actor=Actor(user=alice),
                               data={"seat": 0, "fencing": 4, "ducats": 6})
    # A death's line, as it was kept before 0016, inside a sentence of parts.
    kept = {"sep": "; ", "parts": [{"id": "{name} is saved by his cards",
                                    "values": {"name": "Ana"}}]}
    Move.objects.filter(pk=setup.pk).update(message=kept)
    with translation.override("es"):
        assert Move.objects.get(pk=setup.pk).line.__html__() == "Ana is saved by his cards"

    run_forward(their_cards)

    with translation.override("es"):
        assert Move.objects.get(pk=setup.pk).line.__html__() == "A Ana le salvan sus cartas"
    with translation.override("en"):
        assert Move.objects.get(pk=setup.pk).line.__html__() == "Ana is saved by their cards"


names_said = import_module("companion.migrations.0027_knights_names_said")


def test_knights_lines_kept_with_english_names_say_them_in_spanish_again(alice):
    from tests.factories import session_for

    table = session_for(alice, game="knights", players=("Ann", "Bob", "Cid"),
                        options={"deck": "table"})
    host = Actor(user=alice)
    made = []
    for type, data in (("reveal_event", {"event": "Holy Grail"}),
                       ("grant", {"seat": 0, "damosel": "Guinevere", "chivalry": "loyalty"})):
        table.refresh_from_db()
        made.append(services.move_play(session=table, type=type, data=data, actor=host))
    reveal, grant = made
    # The lines as they were kept before the game said its names under their own ids.
    kept_reveal = {"id": "{name} (Merlin) revealed {event}", "values": {
        "name": "Ann", "event": {"id": "{event} ({kind}: {chivalries})", "values": {
            "event": "Holy Grail", "kind": {"id": "Quest", "values": {}},
            "chivalries": "honor, loyalty, valor, farmer, fisher, forester"}}}}
    kept_grant = {**grant.message, "values": {**grant.message["values"], "chivalry": "loyalty"}}
    Move.objects.filter(pk=reveal.pk).update(message=kept_reveal)
    Move.objects.filter(pk=grant.pk).update(message=kept_grant)
    with translation.override("es"):
        assert Move.objects.get(pk=reveal.pk).line.__html__() == (
            "Ann (Merlin) reveló Holy Grail (Búsqueda: honor, loyalty, valor, farmer, fisher, "
            "forester)")
        assert "una carta de loyalty" in Move.objects.get(pk=grant.pk).line.__html__()

    run_forward(names_said)

    with translation.override("es"):
        assert Move.objects.get(pk=reveal.pk).line.__html__() == (
            "Ann (Merlin) reveló Santo Grial (Búsqueda: honor, lealtad, valor, labranza, pesca, "
            "bosque)")
        assert "una carta de lealtad" in Move.objects.get(pk=grant.pk).line.__html__()
    assert Move.objects.get(pk=reveal.pk).message == reveal.message
    assert Move.objects.get(pk=grant.pk).message == grant.message

    # Reversed, the lines are as they were kept.
    (operation,) = names_said.Migration.operations
    operation.reverse_code(apps, None)
    assert Move.objects.get(pk=reveal.pk).message == kept_reveal
    assert Move.objects.get(pk=grant.pk).message == kept_grant
