"""Choice settings are types: each ``Literal`` alias holds exactly the words the Settings registry accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from sheetswiss.settings import SPECS, Settings, parse_settings

CHOICES = [spec for spec in SPECS if hasattr(spec.parse, "values")]


def literal_values(annotation: Any) -> tuple[str, ...]:
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    return tuple(v for a in get_args(annotation) if a is not type(None) for v in literal_values(a))


def test_every_choice_setting_is_typed() -> None:
    assert len(CHOICES) == 34
    hints = get_type_hints(Settings)
    typed = {name for name, hint in hints.items() if literal_values(hint)}
    assert typed == {spec.key for spec in CHOICES}


@pytest.mark.parametrize("spec", CHOICES, ids=lambda spec: spec.key)
def test_literal_values_are_the_registry_choices(spec: Any) -> None:
    assert literal_values(get_type_hints(Settings)[spec.key]) == spec.parse.values


@pytest.mark.parametrize("spec", CHOICES, ids=lambda spec: spec.key)
def test_each_literal_value_reads_as_itself(spec: Any) -> None:
    custom = [(3, "win_points", "3"), (4, "draw_points", "1"), (5, "loss_points", "0")]  # for points: custom
    for word in spec.parse.values:
        assert getattr(parse_settings([(2, spec.key, word.upper()), *custom]), spec.key) == word


@pytest.mark.slow
def test_mypy_catches_a_misspelt_choice(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    snippet = tmp_path / "typo.py"
    snippet.write_text("from sheetswiss.settings import Settings\n\n\n"
                       "def single(settings: Settings) -> bool:\n"
                       "    return settings.sides == \"singel\"\n", encoding="utf-8")
    out, _, status = api.run(["--strict", "--no-incremental", "--follow-imports=silent", str(snippet)])
    assert status == 1
    assert "Non-overlapping equality check" in out and "Literal['singel']" in out
