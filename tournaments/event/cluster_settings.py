"""The ``[cluster]`` section of a tournament config: where a Dask cluster plays the games.

Kept apart from ``tournaments.cluster.client`` so reading a config never imports Dask. The
section is ignored when a journal's config is compared on ``--resume``: a tournament
may be continued on another cluster, or locally.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

LOCAL = "local"
"""``--cluster local``: run here even though the config names a scheduler."""


class ClusterConfig(BaseModel):
    """A Dask cluster for the games; without ``address`` the games run locally."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)  # as the config's

    address: str | None = None
    """The scheduler, ``tcp://HOST:PORT`` (``--cluster`` overrides)."""
    batch: int = Field(default=4, ge=1, le=1000)
    """Games per Dask task: a task starts the engines once for its games and streams
    their reports back as they finish. A worker that dies loses the game it was playing;
    Dask plays its batch again elsewhere, and a result that arrives twice counts once."""
    engines: dict[str, str] = Field(default_factory=dict)
    """Entrant name → command line as the workers must run it (paths on the workers);
    default: the entrant's own ``command``, built-ins resolved on each worker. A worker's
    ``REFEREE_ENGINES`` file overrides both (see ``tournaments/README.md``)."""
    connect_timeout: float = Field(default=10.0, gt=0)
    """Seconds to reach the scheduler and to wait for its first worker."""

    @field_validator("address")
    @classmethod
    def _check_address(cls, value: str | None) -> str | None:
        if value is not None and (not value.strip() or any(c.isspace() for c in value)):
            raise ValueError("an address is tcp://HOST:PORT without blanks")
        return value
