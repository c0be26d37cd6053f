"""Sessions name the backend that logged their user in: the login backend is now
``companion.logins.AccountBackend`` (Django's ModelBackend with the user read in plain
SQL), so the sessions that name ModelBackend are moved over to it; nobody is logged out
by the update. Undone, they go back.
"""

from django.db import migrations
from django.utils import timezone

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ACCOUNT_BACKEND = "companion.logins.AccountBackend"
BACKEND_KEY = "_auth_user_backend"  # django.contrib.auth.BACKEND_SESSION_KEY


def _move(apps, schema_editor, old, new):
    from django.contrib.sessions.backends.db import SessionStore

    session_model = apps.get_model("sessions", "Session")
    sessions = session_model.objects.using(schema_editor.connection.alias)
    store = SessionStore()
    for key, data in sessions.filter(expire_date__gt=timezone.now()).values_list(
        "session_key", "session_data"
    ).iterator():
        decoded = store.decode(data)
        if decoded.get(BACKEND_KEY) == old:
            decoded[BACKEND_KEY] = new
            sessions.filter(session_key=key).update(session_data=store.encode(decoded))


def forwards(apps, schema_editor):
    _move(apps, schema_editor, MODEL_BACKEND, ACCOUNT_BACKEND)


def backwards(apps, schema_editor):
    _move(apps, schema_editor, ACCOUNT_BACKEND, MODEL_BACKEND)


class Migration(migrations.Migration):

    dependencies = [
        ("companion", "0004_match_results"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
