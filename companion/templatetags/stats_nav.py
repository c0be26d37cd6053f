"""The links to the statistics pages above the history, player, game and head-to-head
pages, written in Python: a link per game (with the group's number of matches of it) and
per player, which through the template engine (an include with two loops) was a good
part of those pages' rendering time.

``{% stats_nav active %}`` with ``group``, ``games`` (``selectors.history.games_played``)
and ``players`` (the roster) in the context; ``active`` is the page's game slug, player
id or ``"h2h"`` (that link is highlighted). Every text is escaped here.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from companion.models import Group, Player
from scoring import GameInfo

register = template.Library()

_LINK = '\n    \n      <a class="btn btn-sm text-nowrap flex-shrink-0 btn-'


def _link(current: bool, href: str, text: str) -> str:
    """One link of the nav (text escaped by the caller), as the loops wrote it."""
    if current:
        return f'{_LINK}secondary" href="{href}" aria-current="page">{text}</a>'
    return f'{_LINK}outline-secondary" href="{href}">{text}</a>'


def nav_html(
    group: Group, games: Sequence[tuple[GameInfo, int]], players: Sequence[Player],
    active: object,
) -> SafeString:
    """The statistics nav of ``group``; ``active`` names the current page's link."""
    group_url = reverse("group_home", args=[group.pk])
    title = html.escape(gettext("Statistics"))
    parts = [
        f'\n<nav class="mb-3 stats-nav" aria-label="{title}">\n'
        f'  <h2 class="h6 text-body-secondary text-uppercase mb-2">{title}</h2>\n'
        '  <div class="d-flex flex-nowrap overflow-auto gap-2 pb-2 mb-1">'
    ]
    for game, count in games:
        parts.append(_link(
            active == game.slug, f"{group_url}games/{game.slug}/",
            f'{html.escape(game.title)} <span class="badge text-bg-light">{count:d}</span>',
        ))
    parts.append('\n    \n  </div>\n  <div class="d-flex flex-nowrap overflow-auto gap-2 pb-2">')
    for player in players:
        parts.append(_link(active == player.pk, f"{group_url}players/{player.pk:d}/",
                           html.escape(player.name)))
    look = "btn-secondary" if active == "h2h" else "btn-outline-secondary"
    parts.append(
        f'\n    \n    <a class="btn btn-sm text-nowrap flex-shrink-0 {look}" '
        f'href="{reverse("head_to_head", args=[group.pk])}">'
        f'{html.escape(gettext("Head-to-head"))}</a>\n  </div>\n</nav>\n'
    )
    return mark_safe("".join(parts))  # every text in it is escaped above


@register.simple_tag(takes_context=True)
def stats_nav(context: template.Context, active: object) -> SafeString:
    return nav_html(context["group"], context["games"], context["players"], active)
