"""The shape of a Coins move: the rules get whole numbers, checked here once."""

from rest_framework import serializers


class TakeSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=3)
    coins = serializers.IntegerField(min_value=1, max_value=3)


SERIALIZERS = {"take": TakeSerializer}
