"""A small HTTP/1.1 client for the benches' many phones (bench/watchers.py): one kept-alive
connection per phone, asyncio streams and httptools' parser (uvicorn's, already installed).

Why not httpx: at 1,000 phones httpx itself took 0.3-0.4 of this machine's two cores
(its pure-Python HTTP parser, anyio, a pool per client), which the server then lacked; a
phone's browser is not on the server's machine. This does what a phone's browser does on
its connection and no more: one request at a time, keep-alive, a new connection when the
server closed the old one, gzip bodies unpacked only when read.
"""

from __future__ import annotations

import asyncio
import gzip
from typing import Any
from urllib.parse import urlencode

import httptools


class HTTPError(Exception):
    pass


class ConnectError(HTTPError):
    pass


class ReadTimeout(HTTPError):
    pass


class RemoteProtocolError(HTTPError):
    """The server closed the connection before it answered (a kept-alive connection it
    had just closed, as a browser also finds now and then)."""


class ReadError(HTTPError):
    pass


class Headers(dict[str, str]):
    """An answer's headers by their names in lower case (the last of a repeated one)."""

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return super().get(name.lower(), default)


class Answer:
    def __init__(self, status_code: int, headers: Headers, body: bytes) -> None:
        self.status_code = status_code
        self.headers = headers
        self.content = body

    @property
    def text(self) -> str:
        body = self.content
        if self.headers.get("content-encoding", "").lower() == "gzip":
            body = gzip.decompress(body)
        return body.decode("utf-8", "replace")


class _Parsed:
    """httptools' callbacks: one answer."""

    def __init__(self) -> None:
        self.headers = Headers()
        self.body: list[bytes] = []
        self.complete = False

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.complete = True


class Client:
    """One phone's browser: a connection to ``host``:``port``, kept open between its
    requests; every request within ``timeout`` seconds or :class:`ReadTimeout`."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def get(self, path: str, headers: dict[str, str] | None = None,
                  params: dict[str, str] | None = None) -> Answer:
        if params:
            path = f"{path}?{urlencode(params)}"
        return await self.request("GET", path, headers or {})

    async def post(self, path: str, data: dict[str, str], headers: dict[str, str] | None = None,
                   ) -> Answer:
        body = urlencode(data).encode()
        return await self.request("POST", path, {
            **(headers or {}), "Content-Type": "application/x-www-form-urlencoded",
        }, body)

    async def request(self, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"") -> Answer:
        try:
            async with asyncio.timeout(self.timeout):
                return await self._exchange(method, path, headers, body)
        except TimeoutError:
            self.close()
            raise ReadTimeout(f"{method} {path}") from None

    async def _exchange(self, method: str, path: str, headers: dict[str, str],
                        body: bytes) -> Answer:
        if self.writer is None:
            try:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            except OSError as error:
                raise ConnectError(str(error)) from error
        assert self.reader is not None and self.writer is not None
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        if body or method == "POST":
            head.append(f"Content-Length: {len(body)}")
        parsed = _Parsed()
        parser: Any = httptools.HttpResponseParser(parsed)
        try:
            self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
            received = False
            while not parsed.complete:
                data = await self.reader.read(65536)
                if not data:
                    self.close()
                    if received:
                        raise ReadError("the connection ended within an answer")
                    raise RemoteProtocolError("the server closed the connection")
                received = True
                parser.feed_data(data)
        except (ConnectionError, httptools.HttpParserError) as error:
            self.close()
            raise ReadError(str(error)) from error
        if not parser.should_keep_alive():
            self.close()
        return Answer(parser.get_status_code(), parsed.headers, b"".join(parsed.body))
