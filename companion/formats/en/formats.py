# One date format on every page, "24 Nov 2026" and "24 Nov 2026, 14:05", whichever format name a
# template asks for (Django's own English formats would give three different ones).
DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
