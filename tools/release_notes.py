"""Print the CHANGELOG's section for one version, the release's notes (the release workflow's).

``python tools/release_notes.py 0.1.0`` prints what stands under ``## [0.1.0]`` up to the next ``## `` heading,
without the heading itself; a version with no section is an error (exit status 1), so no release goes out with
empty notes.
"""

from __future__ import annotations

import pathlib
import re
import sys

CHANGELOG = pathlib.Path(__file__).resolve().parents[1] / "CHANGELOG.md"


def section(text: str, version: str) -> str:
    """The body of ``version``'s section of a Keep a Changelog text (``## [version] - date``), stripped."""
    heading = re.compile(rf"^## \[{re.escape(version)}\](?: - .*)?$", re.M)
    found = heading.search(text)
    if found is None:
        raise LookupError(f"CHANGELOG.md has no section '## [{version}]'")
    following = re.compile(r"^## ", re.M).search(text, found.end())
    body = text[found.end() : following.start() if following else len(text)].strip()
    if not body:
        raise LookupError(f"the CHANGELOG's section for {version} is empty")
    return body


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/release_notes.py VERSION", file=sys.stderr)
        return 2
    try:
        print(section(CHANGELOG.read_text(encoding="utf-8"), argv[0].removeprefix("v")))
    except LookupError as err:
        print(err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
