"""A minimal W3C WebDriver client over the standard library, for Debian's chromium.

Only what the browser tests need: start ``chromedriver`` on a free local port, open
one headless chromium session with a fresh profile and no network services, load
a URL, run scripts, click, press keys, read the browser's console log (chromedriver's
``goog:loggingPrefs`` and its ``/se/log`` endpoint), take a screenshot.

``Browser.start`` raises ``BrowserUnavailable`` (with the reason) when either
program is missing or the session cannot be created; tests turn that into a skip.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1200,1600",
)
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
"""The W3C key of an element reference."""
KEYS = {
    "ArrowLeft": "\ue012",
    "ArrowRight": "\ue014",
    "Home": "\ue011",
    "End": "\ue010",
    "Enter": "\ue007",
}
START_SECONDS = 30.0
"""How long chromedriver may take to answer its status request (a slow, busy machine)."""


class BrowserUnavailable(RuntimeError):
    """Chromium or chromedriver is missing or does not start."""


class WebDriverError(RuntimeError):
    """A WebDriver command failed."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Browser:
    """One chromedriver process and one session; use as a context manager."""

    def __init__(self, driver: subprocess.Popen[bytes], base: str, profile: str) -> None:
        self._driver = driver
        self._base = base
        self._profile = profile
        self._session: str | None = None

    @classmethod
    def start(cls, chromium: str = CHROMIUM, chromedriver: str = CHROMEDRIVER) -> Browser:
        """A ready session. :raises BrowserUnavailable: with the reason."""
        for program in (chromium, chromedriver):
            if shutil.which(program) is None:
                raise BrowserUnavailable(f"{program} is not installed")
        port = _free_port()
        try:
            driver = subprocess.Popen(
                [chromedriver, f"--port={port}"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise BrowserUnavailable(f"cannot run {chromedriver}: {exc}") from None
        browser = cls(driver, f"http://127.0.0.1:{port}", tempfile.mkdtemp(prefix="chromium-"))
        try:
            browser._wait_ready()
            browser._open_session(chromium)
        except (BrowserUnavailable, WebDriverError, OSError) as exc:
            browser.close()
            raise BrowserUnavailable(f"chromium did not start: {exc}") from None
        return browser

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self._driver.poll() is not None:
                raise BrowserUnavailable(f"chromedriver exited with {self._driver.returncode}")
            try:
                if self._request("GET", "/status").get("ready"):
                    return
            except (OSError, WebDriverError):
                pass
            if time.monotonic() > deadline:
                raise BrowserUnavailable("chromedriver did not answer")
            time.sleep(0.1)

    def _open_session(self, chromium: str) -> None:
        options = {"binary": chromium, "args": [*FLAGS, f"--user-data-dir={self._profile}"]}
        capabilities = {
            "browserName": "chrome",
            "goog:chromeOptions": options,
            "goog:loggingPrefs": {"browser": "ALL"},
        }
        value = self._request("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self._session = str(value["sessionId"])

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self._base + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                reply = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")
            raise WebDriverError(f"{method} {path}: {exc.code} {detail[:300]}") from None
        return reply.get("value")

    def _command(self, method: str, path: str, body: Any = None) -> Any:
        assert self._session is not None, "no session"
        return self._request(method, f"/session/{self._session}{path}", body)

    def get(self, url: str) -> None:
        """Load ``url`` and wait for it (WebDriver's page load strategy ``normal``)."""
        self._command("POST", "/url", {"url": url})

    def execute(self, script: str, *args: Any) -> Any:
        """The value of a function body ``script`` run in the page with ``arguments``."""
        return self._command("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait_for(self, condition: str) -> None:
        """Return once the JavaScript expression ``condition`` is true in the page (for
        what the page does in a later task, such as a ``toggle`` event's handler).

        :raises WebDriverError: still false at the session's script timeout (30 s).
        """
        script = (
            "var done = arguments[arguments.length - 1];"
            f"(function poll() {{ if ({condition}) {{ done(true); }}"
            " else { setTimeout(poll, 10); } })();"
        )
        self._command("POST", "/execute/async", {"script": script, "args": []})

    def find(self, css: str) -> str:
        """The element reference of the first match of ``css``."""
        value = self._command("POST", "/element", {"using": "css selector", "value": css})
        return str(value[ELEMENT])

    def click(self, css: str) -> None:
        """A real click (scrolls into view; fails if something covers the element)."""
        self._command("POST", f"/element/{self.find(css)}/click", {})

    def type_text(self, css: str, text: str) -> None:
        """Clear the first field matching ``css`` and type ``text`` into it."""
        element = self.find(css)
        self._command("POST", f"/element/{element}/clear", {})
        self._command("POST", f"/element/{element}/value", {"text": text})

    def press(self, key: str) -> None:
        """Press and release ``key`` (a name of ``KEYS``) on the focused page."""
        code = KEYS[key]
        actions = [{"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]
        self._command(
            "POST", "/actions", {"actions": [{"type": "key", "id": "keys", "actions": actions}]}
        )

    def console(self) -> list[dict[str, Any]]:
        """Console entries since the last call (``level``, ``message``, ``source``)."""
        entries = self._command("POST", "/se/log", {"type": "browser"})
        return list(entries or [])

    def screenshot(self, path: Path) -> None:
        """Save a PNG of the viewport (for looking at a failure)."""
        path.write_bytes(base64.b64decode(self._command("GET", "/screenshot")))

    def close(self) -> None:
        """End the session and chromedriver; remove the profile."""
        try:
            if self._session is not None:
                self._command("DELETE", "")
        except (OSError, WebDriverError):
            pass
        finally:
            self._session = None
            self._driver.terminate()
            try:
                self._driver.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._driver.kill()
                self._driver.wait()
            shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
