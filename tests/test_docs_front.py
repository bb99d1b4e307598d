"""The front door: a short README that opens with the two commands, a docs index that maps every
page, and a command-line reference that is generated from the commands themselves."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_readme_is_a_front_page():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text) <= 8000, f"README.md is {len(text)} characters; details belong in docs/"
    first = re.search(r"```bash\n(.*?)```", text, re.S).group(1).splitlines()
    assert first[0].startswith("pip install . && mistakebound verify")
    assert first[1].startswith("pip install '.[test]' && python -m pytest")
    assert text.index("```bash") < 200, "the two commands open the README"
    assert "docs/index.md" in text and "bench/RESULTS.md" in text


def test_the_index_maps_every_page():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([\w.-]+\.md)\)", index))
    pages = {p.name for p in (ROOT / "docs").glob("*.md")} - {"index.md"}
    assert not pages - linked, f"docs pages not in docs/index.md: {sorted(pages - linked)}"
    assert not linked - pages, f"docs/index.md links pages that do not exist: {sorted(linked - pages)}"


def test_the_cli_reference_is_generated_from_the_commands():
    from mistakebound import reference
    committed = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert committed == reference.render(), "docs/cli.md is stale: run python -m mistakebound.reference"
    for name in reference.COMMANDS:
        assert f"`mistakebound {name}`" in committed
