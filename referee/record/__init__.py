"""Game records in the ``.tgn`` text format (specified in ``protocol/RECORD.md``).

``packed`` keeps many short strings in little memory (a read record's moves and
comments); ``model`` holds the data: ``GameRecord`` and ``MoveEntry``, always well-formed, the tag
rules and the reader's ``RecordSyntaxError``; ``comment`` reads and writes a move's
comment (time used and left, the engine's search items). ``write`` builds a game's record
and appends it to a file; ``parse`` is the strict reader of text, one game at a time;
``stream`` reads a file game by game in bounded memory (batches that other processes can
parse). Each module imports only those listed before it. The names most callers need are
re-exported here; code inside the package imports them from their module.
"""

from referee.record.model import (
    HEAD_TAGS,
    MAX_PLAYERS,
    MOVE_NUMBER,
    MOVE_TOKEN,
    TAG_NAME,
    TAIL_TAGS,
    GameRecord,
    MoveEntry,
    RecordSyntaxError,
    TagError,
    check_move_text,
    check_tags,
)
from referee.record.parse import parse_records
from referee.record.stream import read_records
from referee.record.write import (
    LINE_WIDTH,
    append_record,
    append_text,
    build_record,
    format_record,
    record_text,
    sync_file,
    timing_comment,
)

__all__ = [
    "HEAD_TAGS",
    "LINE_WIDTH",
    "MAX_PLAYERS",
    "MOVE_NUMBER",
    "MOVE_TOKEN",
    "TAG_NAME",
    "TAIL_TAGS",
    "GameRecord",
    "MoveEntry",
    "RecordSyntaxError",
    "TagError",
    "append_record",
    "append_text",
    "build_record",
    "check_move_text",
    "check_tags",
    "format_record",
    "parse_records",
    "read_records",
    "record_text",
    "sync_file",
    "timing_comment",
]
