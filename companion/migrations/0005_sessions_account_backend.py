"""Sessions name the backend that logged their user in: the login backend was then
``companion.logins.AccountBackend``, so the sessions that named ModelBackend were moved
over to it (migration 0008 moves them back); nobody is logged out by either update.
"""

from django.db import migrations

from companion.migrations import _sessions

ACCOUNT_BACKEND = "companion.logins.AccountBackend"


def forwards(apps, schema_editor):
    _sessions.move_backend(apps, schema_editor, _sessions.MODEL_BACKEND, ACCOUNT_BACKEND)


def backwards(apps, schema_editor):
    _sessions.move_backend(apps, schema_editor, ACCOUNT_BACKEND, _sessions.MODEL_BACKEND)


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0004_match_results"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
