"""The matches started per group and game, kept for the statistics links (filled here for
the matches already there)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count


def count_matches(apps, schema_editor):  # type: ignore[no-untyped-def]
    Match = apps.get_model("companion", "Match")
    GameCount = apps.get_model("companion", "GameCount")
    GameCount.objects.bulk_create(
        GameCount(group_id=group, game=game, matches=n)
        for group, game, n in Match.objects.values_list("group_id", "game")
        .annotate(n=Count("id"))
        .order_by()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0005_sessions_account_backend"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "game",
                    models.CharField(
                        choices=[
                            ("drei-sind-einer-zuviel", "3 sind einer zuviel!"),
                            ("x-nimmt", "X nimmt!"),
                            ("freaky", "Freaky"),
                            ("elf-nimmt", "11 nimmt!"),
                            ("dreizehn", "13"),
                        ],
                        max_length=30,
                    ),
                ),
                ("matches", models.PositiveIntegerField()),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="companion.group",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("group", "game"), name="unique_game_count")
                ],
            },
        ),
        migrations.RunPython(count_matches, migrations.RunPython.noop),
    ]
