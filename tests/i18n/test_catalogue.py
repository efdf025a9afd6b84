"""The Spanish catalogue: complete, with nothing fuzzy, compiled, and holding every marked text.

`make messages` gathers the marked texts (gettext, {% translate %}, gettext_noop in the engine)
into cribsite/locale/es/LC_MESSAGES/django.po and compiles django.mo, which is committed so a
fresh clone needs no gettext tools.
"""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "cribsite" / "locale" / "es" / "LC_MESSAGES"
SOURCES = ("accounts", "cribsite", "games", "templates")


def entries() -> list[polib.POEntry]:
    return [e for e in polib.pofile(str(CATALOGUE / "django.po")) if not e.obsolete]


def test_every_entry_is_translated_and_none_is_fuzzy():
    untranslated = [e.msgid for e in entries() if not e.translated()]
    fuzzy = [e.msgid for e in entries() if "fuzzy" in e.flags]
    assert not untranslated, f"{len(untranslated)} texts have no Spanish: {untranslated[:10]}"
    assert not fuzzy, f"{len(fuzzy)} Spanish texts are marked fuzzy: {fuzzy[:10]}"


def test_translations_keep_the_fields_of_their_text():
    """A translation that drops or renames a %(field)s or {field} would fail at run time."""
    wrong = []
    for entry in entries():
        pairs = [(entry.msgid, entry.msgstr)] if not entry.msgid_plural else [
            (entry.msgid_plural, text) for text in entry.msgstr_plural.values()
        ]  # fmt: skip
        for english, spanish in pairs:
            if _fields(english) != _fields(spanish):
                wrong.append((english, spanish))
    assert not wrong, wrong[:10]


def test_the_compiled_catalogue_matches_its_source():
    with open(CATALOGUE / "django.mo", "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for entry in entries():
        if entry.msgid_plural:
            got = compiled.ngettext(entry.msgid, entry.msgid_plural, 1)
            want = entry.msgstr_plural[0]
        else:
            key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
            got, want = compiled._catalog.get(key), entry.msgstr
        if got != want:
            stale.append(entry.msgid)
    assert not stale, f"django.mo is older than django.po (run `make messages`): {stale[:5]}"


def test_the_catalogue_holds_every_marked_text(tmp_path):
    """Gather the texts afresh from a copy of the sources: none may be missing from the .po."""
    if shutil.which("xgettext") is None:
        skip_or_fail("gettext's xgettext is not installed")
    for name in SOURCES:
        shutil.copytree(
            ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo")
        )
    (tmp_path / "locale").mkdir()
    subprocess.run(
        [sys.executable, "-m", "django", "makemessages", "-l", "es", "--no-location",
         "--ignore=cribsite/locale/*"],
        cwd=tmp_path, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    fresh = polib.pofile(str(tmp_path / "locale" / "es" / "LC_MESSAGES" / "django.po"))
    have = {(e.msgctxt, e.msgid) for e in entries()}
    missing = sorted(e.msgid for e in fresh if (e.msgctxt, e.msgid) not in have)
    assert not missing, f"{len(missing)} texts are not in the catalogue (run `make messages`): " + (
        "; ".join(missing[:10])
    )


# The calls that mark a text for the catalogue (Django's names and the engine's gettext_noop).
MARKERS = {"gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy", "pgettext",
           "pgettext_lazy", "npgettext", "_"}  # fmt: skip


def test_no_marked_text_hides_inside_an_f_string():
    """xgettext (0.21, Debian's) does not look inside f-strings, so a text marked there is left
    out when `make messages` gathers the catalogue, and its Spanish is dropped as obsolete: the
    page then shows it in English. Marked texts are taken out of the f-string first."""
    hidden = []
    for name in SOURCES:
        for path in sorted((ROOT / name).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.JoinedStr):
                    continue
                hidden += [
                    f"{path.relative_to(ROOT)}:{call.lineno}"
                    for call in ast.walk(node)
                    if isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id in MARKERS
                ]
    assert not hidden, f"texts marked inside an f-string, which xgettext misses: {hidden}"


def _fields(text: str) -> list[str]:
    return sorted(re.findall(r"%\([a-z_0-9]+\)[sd]|\{[a-z_0-9]*\}", text))
