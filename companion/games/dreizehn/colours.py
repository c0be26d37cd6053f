"""13: the colours of its cards in the reader's words (the deal form's labels, engine
messages, score parts)."""

from django.utils.translation import pgettext_lazy

WORDS = {
    "red": pgettext_lazy("card colour", "red"),
    "yellow": pgettext_lazy("card colour", "yellow"),
    "green": pgettext_lazy("card colour", "green"),
    "blue": pgettext_lazy("card colour", "blue"),
}
