"""A visitor without a browser for the deployment tests: cookies, forms as the page has them.

``Visitor.submit`` reads a form from a page the way a browser would send it
(hidden fields, chosen options, checked boxes, typed values), changes the
fields named, and posts it; so the tests keep working when a form gains a
hidden field.
"""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.request
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urlencode, urljoin


class Headers(dict[str, str]):
    """An answer's headers by name, in any case (HTTP/1.1 servers such as uvicorn send
    them in lower case)."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        super().__init__((name.lower(), value) for name, value in items)

    def __getitem__(self, name: str) -> str:
        return super().__getitem__(name.lower())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and super().__contains__(name.lower())

    def get(self, name: str, default: str | None = None) -> str | None:  # type: ignore[override]
        return super().get(name.lower(), default)


@dataclass
class Answer:
    status: int
    url: str
    headers: Headers
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


class Visitor:
    """One person's phone: a cookie jar shared by every server it talks to."""

    def __init__(self) -> None:
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self._raw = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect
        )

    def get(self, url: str, *, headers: dict[str, str] | None = None,
            follow: bool = True) -> Answer:
        return self._send(urllib.request.Request(url, headers=headers or {}), follow=follow)

    def post(self, url: str, data: list[tuple[str, str]], *, follow: bool = True) -> Answer:
        request = urllib.request.Request(
            url, data=urlencode(data).encode(), method="POST",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        return self._send(request, follow=follow)

    def submit(self, page: Answer, action_ends: str, changes: dict[str, str],
               *, follow: bool = True) -> Answer:
        """Post the page's form whose action ends with ``action_ends``, fields changed."""
        form = find_form(page.text, action_ends, page.url)
        fields = [(name, value) for name, value in form.fields if name not in changes]
        fields += list(changes.items())
        return self.post(form.action, fields, follow=follow)

    def _send(self, request: urllib.request.Request, *, follow: bool) -> Answer:
        opener = self._opener if follow else self._raw
        try:
            with opener.open(request, timeout=30) as response:
                return Answer(response.status, response.url, Headers(response.headers.items()),
                              response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.url, Headers(error.headers.items()), error.read())


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]]


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._select_chosen = False
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = Form(a.get("action", ""), [])
            self.forms.append(self._form)
        elif self._form is None or "disabled" in a:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in {"submit", "button", "image", "reset", "file"}:
                return
            if kind in {"checkbox", "radio"} and "checked" not in a:
                return
            default = "on" if kind == "checkbox" else ""
            self._form.fields.append((a["name"], a.get("value", default)))
        elif tag == "select" and a.get("name"):
            self._select, self._select_first, self._select_chosen = a["name"], None, False
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            if self._select_first is None:
                self._select_first = value
            if "selected" in a and not self._select_chosen:
                self._select_chosen = True
                self._form.fields.append((self._select, value))
        elif tag == "textarea" and a.get("name"):
            self._textarea, self._text = a["name"], []

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select is not None and self._form is not None:
            if not self._select_chosen and self._select_first is not None:
                self._form.fields.append((self._select, self._select_first))
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self._form is not None:
            self._form.fields.append((self._textarea, "".join(self._text).removeprefix("\n")))
            self._textarea = None


def find_form(html: str, action_ends: str, page_url: str) -> Form:
    """The first form whose action (an empty one is the page itself) ends with
    ``action_ends``, its action made absolute."""
    parser = _FormParser()
    parser.feed(html)
    for form in parser.forms:
        action = urljoin(page_url, form.action)
        if action.split("?")[0].endswith(action_ends):
            return Form(action, form.fields)
    actions = [form.action for form in parser.forms]
    raise AssertionError(f"no form with an action ending {action_ends!r} (forms: {actions})")
