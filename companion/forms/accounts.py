"""Forms of the accounts area: Django's auth forms with our labels."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """A new account: a user name and a password typed twice."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        username = self.fields["username"]
        username.widget.attrs.update(
            {"autofocus": True, "autocapitalize": "none", "autocomplete": "username"}
        )
