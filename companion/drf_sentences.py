"""Django REST Framework's own sentences for a field it refuses, as the app says them in Spanish.

DRF's Spanish catalogue speaks to the reader as "usted" ("Introduzca un número entero válido.",
"Asegúrese de que este valor es mayor o igual a 0."), where every other sentence of the app says
"tú" or none. Its sentences are listed here only so that the catalogue extraction carries them
into the platform's catalogue (locale/), which Django reads before DRF's own (LOCALE_PATHS
precede the installed apps): DRF asks for its sentence, and the app's Spanish answers. Nothing
imports this module.
"""

from django.utils.translation import gettext_noop as _

SENTENCES = (
    _("A valid integer is required."),
    _("Ensure this value is greater than or equal to {min_value}."),
    _("Ensure this value is less than or equal to {max_value}."),
    _("Ensure this field has at least {min_length} characters."),
    _("Ensure this field has no more than {max_length} characters."),
    _("Ensure this field has at least {min_length} elements."),
    _("Ensure this field has no more than {max_length} elements."),
    _("Ensure that there are no more than {max_digits} digits in total."),
    _("Ensure that there are no more than {max_decimal_places} decimal places."),
    _("Ensure that there are no more than {max_whole_digits} digits before the decimal point."),
    _("Date has wrong format. Use one of these formats instead: {format}."),
    _("Datetime has wrong format. Use one of these formats instead: {format}."),
    _("Time has wrong format. Use one of these formats instead: {format}."),
    _("Duration has wrong format. Use one of these formats instead: {format}."),
    _("The submitted file is empty."),
)
