"""The page's HTML from Jinja2 templates (templates/), autoescaped: every string from the
database, a record or the console is escaped by Jinja2 as it goes into the page, and no HTML is
built by hand (issue 36). The script (static/page.js) writes what it polls with textContent only.
No inline script or style: the server's Content-Security-Policy allows the page's own files and
nothing else.

`writes` is the server's (server.py): "open" (the write controls as they are), "token" (the
header asks for the token, which the script keeps in sessionStorage; the controls are greyed
until it is given), "closed" (read-only: the controls are not there or disabled, and the header
says so)."""
from __future__ import annotations

import functools
import html
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup


@functools.cache
def environment() -> Environment:
    env = Environment(loader=PackageLoader("doodlebox.web", "templates"),
                      autoescape=select_autoescape(("html", "svg"), default=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["text"] = text
    return env


def text(value: Any) -> Markup:
    """`value` as text escaped with the standard library's entities (html.escape: &#x27; &quot;)
    where Jinja2's are &#39; &#34;: the coach's chart (coach_chart.svg) writes its words as they
    always were, and `doodlebox analyse`'s readers find them. Escaped all the same."""
    return Markup(html.escape(str(value)))


def render(template: str, **values: Any) -> str:
    """templates/`template` with `values` (every string in them escaped)."""
    return environment().get_template(template).render(**values)
