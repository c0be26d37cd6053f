"""The database cache table (settings.CACHES) made by migrate too, so that no way of
setting up a database (make run, CI, a restore, a host who forgets
`createcachetable`) leaves the game pages without their cache."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("companion", "0002_table_flow_and_logs")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
