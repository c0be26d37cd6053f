"""The BG Stats format: a group's plays in and out, and the generic CSV.

BG Stats is an app that tracks board game plays; many tools read and write the shape of
its export, ``BGStatsExport.json``. One module per step:

- :mod:`.read`: :func:`bgstats_read` checks a file strictly and within fixed limits;
  anything wrong gives one :class:`BGStatsError` with a message that says where.
- :mod:`.plan`: :func:`bgstats_plan` reads a file for a group: the :class:`ImportPlan`
  (which plays are of Kartenrunde's games, which players to map onto the roster), the user's
  :class:`ImportMapping`, and the plan kept between the upload and the confirm;
  ``companion.services.bgstats.bgstats_import`` stores the plays.
- :mod:`.export`: :func:`bgstats_export` writes a group's finished matches in the same
  shape (so that tools built for BG Stats read ours, BG Stats itself included).
- :mod:`.matches_csv`: :func:`matches_csv`, every match and player score as CSV.
"""

from companion.bgstats.export import (
    bgstats_export,
    bgstats_export_chunks,
    bgstats_export_json,
    match_uuid,
)
from companion.bgstats.matches_csv import MATCHES_CSV_HEADERS, matches_csv, matches_csv_chunks
from companion.bgstats.plan import (
    ImportMapping,
    ImportPlan,
    Prepared,
    ReadyPlay,
    Reason,
    SourceGame,
    SourcePlayer,
    bgstats_plan,
    bgstats_replan,
    name_match_key,
    plan_dump,
    plan_load,
    recognise,
)
from companion.bgstats.read import (
    MAX_BYTES,
    BGStatsError,
    SourcePlay,
    SourceScore,
    bgstats_read,
)

__all__ = [
    "MATCHES_CSV_HEADERS",
    "MAX_BYTES",
    "BGStatsError",
    "ImportMapping",
    "ImportPlan",
    "Prepared",
    "ReadyPlay",
    "Reason",
    "SourceGame",
    "SourcePlay",
    "SourcePlayer",
    "SourceScore",
    "bgstats_export",
    "bgstats_export_chunks",
    "bgstats_export_json",
    "bgstats_plan",
    "bgstats_read",
    "bgstats_replan",
    "match_uuid",
    "matches_csv",
    "matches_csv_chunks",
    "name_match_key",
    "plan_dump",
    "plan_load",
    "recognise",
]
