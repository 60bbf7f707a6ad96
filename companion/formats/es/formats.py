# The same date format as in English ("24 nov 2026, 14:05"): see ../en/formats.py. "b" is the
# month's short name in lower case, as Spanish writes it ("M" would give "Nov").
DATE_FORMAT = "j b Y"
SHORT_DATE_FORMAT = "j b Y"
DATETIME_FORMAT = "j b Y, H:i"
SHORT_DATETIME_FORMAT = "j b Y, H:i"
