"""The statistics' shapes in the schema (api.md, "Players and statistics"): a player's, a game's,
and who finishes ahead of whom."""

from rest_framework import serializers


class MonthSerializer(serializers.Serializer):
    month = serializers.RegexField(r"^\d{4}-\d{2}$", help_text="2026-09")
    plays = serializers.IntegerField(min_value=1)
    wins = serializers.IntegerField(min_value=0, required=False,
                                    help_text="the player's wins (a player's figures only)")


class CountSerializer(serializers.Serializer):
    plays = serializers.IntegerField(min_value=1)
    wins = serializers.IntegerField(
        min_value=0, help_text="a player's: their wins; a game's: its plays someone won (a "
                               "cooperative game: the table)")


class CoopSerializer(serializers.Serializer):
    plays = serializers.IntegerField(min_value=1)
    won = serializers.IntegerField(min_value=0)
    lost = serializers.IntegerField(min_value=0)


class FiguresSerializer(serializers.Serializer):
    """What a player's and a game's statistics both give (play_figures)."""

    by_month = MonthSerializer(many=True, help_text="plays by month of the play, oldest first")
    minutes_played = serializers.IntegerField(
        min_value=0, help_text="the lengths of the plays that kept one, in minutes")
    first_played = serializers.DateField(allow_null=True)
    last_played = serializers.DateField(allow_null=True)
    by_player_count = serializers.DictField(
        child=CountSerializer(), help_text='by the number of players: {"3": {"plays", "wins"}}')
    coop = CoopSerializer(allow_null=True, help_text="the cooperative plays, won or lost by the "
                                                     "whole table (null: none)")


class PlayerGameSerializer(serializers.Serializer):
    plays = serializers.IntegerField(min_value=1)
    wins = serializers.IntegerField(min_value=0)
    best = serializers.FloatField(allow_null=True)
    average = serializers.FloatField(allow_null=True)


class PlayerStatsSerializer(FiguresSerializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    plays = serializers.IntegerField(min_value=0)
    wins = serializers.IntegerField(min_value=0)
    win_rate = serializers.FloatField(min_value=0, max_value=1)
    games = serializers.DictField(child=PlayerGameSerializer(),
                                  help_text="by game: its slug, or slug:title for a named game")
    h_index = serializers.IntegerField(min_value=0)
    streaks = serializers.DictField(child=serializers.IntegerField(min_value=0))
    head_to_head = serializers.ListField(child=serializers.DictField())
    nemesis = serializers.DictField(allow_null=True)


class GameStatsSerializer(FiguresSerializer):
    game = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    plays = serializers.IntegerField(min_value=0)
    results = serializers.IntegerField(min_value=0)
    average = serializers.FloatField(allow_null=True)
    winning_average = serializers.FloatField(allow_null=True)
    average_players = serializers.FloatField(allow_null=True)
    distribution = serializers.ListField(child=serializers.DictField())
    records = serializers.ListField(child=serializers.DictField())
    winners = serializers.ListField(child=serializers.DictField())
    length = serializers.DictField(child=serializers.IntegerField(allow_null=True))


class VersusPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class VersusCellSerializer(serializers.Serializer):
    together = serializers.IntegerField(min_value=0)
    ahead = serializers.IntegerField(min_value=0)


class VersusSerializer(serializers.Serializer):
    players = VersusPlayerSerializer(many=True, help_text="the most played first")
    rows = serializers.ListField(
        child=serializers.ListField(child=VersusCellSerializer(allow_null=True)),
        help_text="row i against column j: games together, and how often i finished ahead of "
                  "j (null: a player against themself)")



class AccountStatsSerializer(PlayerStatsSerializer):
    """An account's own statistics: its linked roster players' results, at every host's table,
    counted as one person's."""

    player = serializers.IntegerField(allow_null=True, help_text="null: an account's own")
    name = serializers.CharField(help_text="the account's user name")
