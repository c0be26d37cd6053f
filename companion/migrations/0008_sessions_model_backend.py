"""Sessions name the backend that logged their user in. The app's own login backend
(``companion.logins.AccountBackend``) is gone: the sessions that name it are moved to
Django's ModelBackend, so nobody is logged out by the update. Undone, they go back."""

from django.db import migrations

from companion.migrations import _sessions

ACCOUNT_BACKEND = "companion.logins.AccountBackend"


def forwards(apps, schema_editor):
    _sessions.move_backend(apps, schema_editor, ACCOUNT_BACKEND, _sessions.MODEL_BACKEND)


def backwards(apps, schema_editor):
    _sessions.move_backend(apps, schema_editor, _sessions.MODEL_BACKEND, ACCOUNT_BACKEND)


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0007_running_matches_index"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
