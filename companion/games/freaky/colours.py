"""Freaky: the colours of its cards (backgrounds and circles) in the reader's words (engine
messages)."""

from django.utils.translation import pgettext_lazy

WORDS = {
    "red": pgettext_lazy("card colour", "red"),
    "orange": pgettext_lazy("card colour", "orange"),
    "yellow": pgettext_lazy("card colour", "yellow"),
    "green": pgettext_lazy("card colour", "green"),
    "blue": pgettext_lazy("card colour", "blue"),
    "violet": pgettext_lazy("card colour", "violet"),
}
