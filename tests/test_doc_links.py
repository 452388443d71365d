"""Every relative link of the repository's Markdown files leads somewhere: the file (or folder)
exists, and a ``#fragment`` names one of that file's headings as GitHub anchors them (a fragment
of any other file, such as a line of code, would go stale as the code moves: refused)."""

import functools
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def markdown_files() -> list[Path]:
    """The Markdown files git tracks (a clone's, not a working folder's leftovers)."""
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / line for line in out.splitlines() if line]


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped (links keep their text), spaces to hyphens.

    >>> anchor("Zones: `vision.zones.Zones`")
    'zones-visionzoneszones'
    >>> anchor("Faster blurs, a coarser table model, and only what differs from the table")
    'faster-blurs-a-coarser-table-model-and-only-what-differs-from-the-table'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@functools.cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors of a Markdown file's headings (the second of two the same gets "-1", as on GitHub; read once per file)."""
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        a = anchor(heading)
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else f"{a}-{n}")
    return frozenset(out)


def links(path: Path) -> list[str]:
    """The relative link targets of a Markdown file (outside code blocks)."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    targets = [a or b for a, b in LINK.findall(text)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t)]  # (http:, https:, mailto:)


LINKS = [(path, target) for path in markdown_files() for target in links(path)]


def test_the_markdown_files_have_links() -> None:
    assert len(LINKS) > 50, "README.md and docs/ link to each other and to the code"


@pytest.mark.parametrize("path, target", LINKS, ids=[f"{p.relative_to(ROOT)}->{t}" for p, t in LINKS])
def test_a_relative_link_leads_somewhere(path: Path, target: str) -> None:
    file, _, fragment = target.partition("#")
    goal = (path.parent / file).resolve() if file else path
    assert goal.exists(), f"{path.relative_to(ROOT)} links to {target!r}: no such file"
    if fragment:
        assert goal.suffix == ".md", f"{path.relative_to(ROOT)} links to {target!r}: a fragment of a file that is no Markdown"
        assert fragment in anchors(goal), f"{path.relative_to(ROOT)} links to {target!r}: {goal.name} has no heading with that anchor"
