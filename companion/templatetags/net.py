"""``{% net_strings %}``: the texts of the app's JavaScript (static/js/net.js, queue.js,
sync.js, wakelock.js) in the user's language, as a JSON script tag the scripts read.

The scripts need no translation catalogue of their own: the page brings the words.
``%(number)s`` and ``%(status)s`` are filled in by the scripts.
"""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

register = template.Library()


def strings() -> dict[str, str]:
    return {
        "offline": _("No connection: nothing was sent. Check the network and try again."),
        "timeout": _("The server did not answer in time. Try again."),
        "server": _("The server had a problem and saved nothing. Try again in a moment."),
        "busy": _("The server was busy saving another change, so nothing of this one was "
                  "saved. Try again in a moment."),
        "forbidden": _("Not allowed, or the page is out of date. Reload the page."),
        "notFound": _("Not found: perhaps it was deleted on another phone. Reload the page."),
        "refused": _("The server refused the request (error %(status)s)."),
        "loggedOut": _("You are logged out: nothing was saved. Log in again."),
        "retry": _("Try again"),
        "reload": _("Reload"),
        "close": _("Close"),
        "stale": _("Offline: this sheet may be out of date."),
        "queued": _("No connection: deal %(number)s stays on this phone and is sent by "
                    "itself when the network is back."),
        "queuedTap": _("No connection: the tap stays on this phone and is sent by itself "
                       "when the network is back."),
        "deal": _("Deal %(number)s"),
        "waiting": _("waiting for network"),
        "sending": _("sending …"),
        "notSaved": _("not saved"),
        "recordedElsewhere": _("Deal %(number)s was recorded on another phone meanwhile: "
                               "these entries were not saved."),
        "refusedDeal": _("The server refused deal %(number)s."),
        "asNext": _("Enter as the next deal"),
        "discard": _("Discard"),
        "tapChainBroken": _("Not sent: a tap before it was refused."),
        "staleForm": _("Deal %(number)s was recorded on another phone. Your entries are "
                       "still here."),
        "useForNext": _("Use them for deal %(number)s"),
        "wakeOn": _("Screen stays on"),
        "wakeFailed": _("The screen cannot be kept on right now."),
    }


@register.simple_tag
def net_strings() -> SafeString:
    return json_script(strings(), "net-strings")
