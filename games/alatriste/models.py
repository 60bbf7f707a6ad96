"""The card catalogue: the printed cards, shared by every table and edited by staff in the admin,
and each host's own cards, that host's alone.

Moves never point at a catalogue row: the move serializer copies the card's values into the move
(rules.card_of's dict), so a replay does not change when the catalogue is corrected later.
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Card(models.Model):
    class Kind(models.TextChoices):
        CHARACTER = "character", _("character")
        POSSESSION = "possession", _("possession")
        ATTACK = "attack", _("attack")
        HELP = "help", _("help")

    number = models.PositiveIntegerField(null=True, blank=True,
                                         help_text=_("The number printed on the card, if any."))
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    fame = models.SmallIntegerField(default=0)
    vigour = models.SmallIntegerField(default=0)
    fencing = models.SmallIntegerField(default=0)
    pistols = models.BooleanField(default=False)
    vehicle = models.BooleanField(default=False, help_text=_("A carriage, a horse or a sedan "
                                                             "chair: opens zones 2 and 3."))
    enemies = models.JSONField(default=list, blank=True,
                               help_text=_("Names of the cards this one may not sit beside."))
    placeholder = models.BooleanField(
        default=False,
        help_text=_("Values the rules do not give: correct them from your own cards."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="+", help_text=_("The host whose own card this is; none for the printed "
                                      "cards, which every table shares."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="alatriste_printed_card_name_unique",
                                    condition=models.Q(owner__isnull=True)),
            models.UniqueConstraint(Lower("name"), "owner",
                                    name="alatriste_own_card_name_unique_per_host"),
        ]

    def __str__(self):
        return self.name

    @classmethod
    def seen_by(cls, owner_id):
        """The cards a host's tables use: the printed ones and the host's own."""
        return cls.objects.filter(models.Q(owner__isnull=True) | models.Q(owner_id=owner_id))

    def as_rules(self):
        """The card as rules.py and the stored moves keep it."""
        return {
            "id": self.pk, "number": self.number, "name": self.name, "kind": self.kind,
            "fame": self.fame, "vigour": self.vigour, "fencing": self.fencing,
            "pistols": self.pistols, "vehicle": self.vehicle, "enemies": list(self.enemies or []),
        }
