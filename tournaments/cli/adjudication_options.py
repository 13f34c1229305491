"""The score adjudication options ``play`` and ``tournament`` share (cutechess's
``-resign``/``-draw``; the rules are ``referee.score_rules``)."""

from __future__ import annotations

from typing import Annotated

import typer

ResignOption = Annotated[
    str | None,
    typer.Option("--resign", help="Score adjudication: movecount=M,share=S (thousandths)."),
]
DrawOption = Annotated[
    str | None,
    typer.Option("--draw", help="Score adjudication: movenumber=K,movecount=M,spread=S."),
]
