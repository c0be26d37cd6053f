"""3 sind einer zuviel!: the colours of its cards in the reader's words (``WORDS``: the deal
form's labels, engine messages, score parts) and as the screens draw them (the deal form's
swatches, the live board's buttons)."""

from django.utils.translation import pgettext_lazy

WORDS = {
    "orange": pgettext_lazy("card colour", "orange"),
    "flieder": pgettext_lazy("card colour", "lilac"),
    "hellblau": pgettext_lazy("card colour", "light blue"),
    "rot": pgettext_lazy("card colour", "red"),
    "tuerkis": pgettext_lazy("card colour", "turquoise"),
    "magenta": pgettext_lazy("card colour", "magenta"),
    "olivgruen": pgettext_lazy("card colour", "olive"),
}

SWATCHES = {
    "orange": "#f28c28", "flieder": "#b39ddb", "hellblau": "#81d4fa", "rot": "#e53935",
    "tuerkis": "#26a69a", "magenta": "#d81b60", "olivgruen": "#827717",
}
