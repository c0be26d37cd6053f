"""Moving stored sessions from one login backend to another (migrations 0005 and 0008):
a session names the backend that logged its user in, and a session that names a backend
no longer configured logs its user out."""

from django.utils import timezone

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
BACKEND_KEY = "_auth_user_backend"  # django.contrib.auth.BACKEND_SESSION_KEY


def move_backend(apps, schema_editor, old, new):
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
