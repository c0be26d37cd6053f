"""Every game: 1,000 complete random games, recorded as the table records them, score
to the totals the game model counted itself.

A complete random game is one ``random_game(players, rng)``: every deal of a
match, from the shuffle to the final totals (the per-game property tests hold
``random_game`` move by move to the public model). The seeds are fixed (0 to
999, the player counts taking turns) rather than drawn by hypothesis: its
bookkeeping costs about 3 ms an example, more than most of these games.
"""

from __future__ import annotations

import random

import pytest

from scoring import GAMES, rank
from scoring.common import match_totals, rules_for

GAMES_PER_GAME = 1_000


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_thousand_random_games_record_deals_that_validate_explain_and_add_up_to_the_totals(
    slug: str,
) -> None:
    info = GAMES[slug]
    rules = rules_for(slug)
    counts = range(info.min_players, info.max_players + 1)
    for seed in range(GAMES_PER_GAME):
        players = counts[seed % len(counts)]
        game = rules.random_game(players, random.Random(seed))
        where = f"seed {seed}, {players} players"
        needed = rules.deal_count(players)
        if needed is None:  # a match to a target (6 nimmt!): over after its last deal, not before
            over = rules.match_over  # type: ignore[attr-defined]
            scores = [rules.score_deal(entries) for entries in game.deals]
            assert over(scores) and not over(scores[:-1]), where
        else:
            assert len(game.deals) == needed, where
        assert sorted(game.totals) == sorted(game.players) and len(game.players) == players
        for entries in game.deals:
            assert list(entries) == list(game.players), where
            rules.validate_deal(entries)
            scores = rules.score_deal(entries)
            parts = rules.explain_deal(entries)
            assert {player: sum(part.points for part in terms)
                    for player, terms in parts.items()} == scores, where
            stored = {player: rules.entry_from_dict(rules.entry_to_dict(entry))
                      for player, entry in entries.items()}
            assert stored == dict(entries), where
        assert match_totals(slug, game.deals) == dict(game.totals), where
        standings = rank(game.totals, lower_is_better=info.lower_is_better)
        assert sorted(player for _, player, _ in standings) == sorted(game.players), where
