"""The terrain library file is read strictly: every mistake names the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablegen.apps import check_terrain_library
from tablegen.engine.library import PIECES_FILE, LibraryError, read_library, terrain_library

GOOD = """
[roles]
wall = "Walls"

[pieces.wall]
name = "Low wall"
role = "wall"
provisional = true
hexes = [[0, 0, "cover"], [1, 0, "cover"]]

[mixes.plain]
name = "Plain"
weights = { wall = 1 }

[generator]
coverage_asked_min = 0.30
coverage_asked_max = 0.60
coverage_slack = 2
entry_row_blocking_max = 3
elevated_pieces_min = 1
fill_before_repairs = 0.75
exposure_band = [30.0, 60.0]
exposure_band_candidates = 40
exposure_band_box_candidates = 5
max_candidates = 1000
max_box_candidates = 150

[pack_tolerance]
coverage = 0.05
longest_sightline = 4
dominance = 0.25
exposure = 20.0
cover_near_edge = 6
"""


def library_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pieces.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_library_reads_and_the_start_up_check_passes():
    library = terrain_library()
    assert library.pieces and library.mixes
    assert read_library(PIECES_FILE) == library
    assert check_terrain_library() == []


def test_a_small_library_reads(tmp_path):
    library = read_library(library_file(tmp_path, GOOD))
    assert library.pieces["wall"].hexes == ((0, 0, "cover"), (1, 0, "cover"))
    assert library.mixes["plain"] == ("Plain", {"wall": 1})
    assert library.pack_tolerance["exposure"] == 20.0


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ('name = "Low wall"', 'name = "Low wall"\ncolour = "red"', "pieces.wall.colour"),
        ('name = "Low wall"', "name = 3", "pieces.wall.name"),
        ('"cover"], [1, 0, "cover"]', '"cover"], [1, 0, "lava"]', "pieces.wall.hexes[1]"),
        ('[1, 0, "cover"]', '[0, 0, "cover"]', "pieces.wall.hexes[1]"),
        ('[1, 0, "cover"]', '[1.5, 0, "cover"]', "pieces.wall.hexes[1]"),
        ('[1, 0, "cover"]', "[1, 0]", "pieces.wall.hexes[1]"),
        ("hexes = [[0, 0", "tiles = [[0, 0", "pieces.wall.hexes"),
        ("[pieces.wall]", "[pieces.Wall]", "pieces.Wall"),
        ("wall = 1 }", "wall = 1, tower = 2 }", "mixes.plain.weights.tower"),
        ("wall = 1 }", "wall = -1 }", "mixes.plain.weights.wall"),
        ("wall = 1 }", "wall = 0 }", "mixes.plain.weights"),
        ("dominance = 0.25", "dominance = true", "pack_tolerance.dominance"),
        ("dominance = 0.25", "", "pack_tolerance.dominance"),
        ("cover_near_edge = 6", "cover_near_edge = 6\nheight = 2", "pack_tolerance.height"),
        ("[pack_tolerance]", "[extra]\nx = 1\n[pack_tolerance]", "extra"),
        ('role = "wall"', 'role = "tower"', "pieces.wall.role"),
        ("provisional = true", "provisional = 1", "pieces.wall.provisional"),
        ('[[0, 0, "cover"], [1, 0', '[[2, 0, "cover"], [1, 0', "pieces.wall.hexes"),
        ('[1, 0, "cover"]', '[3, 0, "cover"]', "pieces.wall.hexes"),
        ("[pieces.wall]", "[pieces.custom]", "pieces.custom"),
        ("coverage_slack = 2", "coverage_slack = -1", "generator.coverage_slack"),
        ("exposure_band = [30.0, 60.0]", "exposure_band = [60.0, 30.0]", "generator.exposure_band"),
        ("coverage_asked_max = 0.60", "coverage_asked_max = 0.20", "generator.coverage_asked_max"),
    ],
)
def test_a_mistake_names_the_file_and_the_key(tmp_path, old, new, path):
    assert old in GOOD
    with pytest.raises(LibraryError) as caught:
        read_library(library_file(tmp_path, GOOD.replace(old, new, 1)))
    assert caught.value.source == "pieces.toml"
    assert caught.value.path == path
    assert str(caught.value).startswith(f"pieces.toml: {path}: ")


def test_a_terrain_kind_the_ruleset_lacks_is_refused(tmp_path):
    with pytest.raises(LibraryError, match="unknown terrain kind 'cover'"):
        read_library(library_file(tmp_path, GOOD), kinds=("blocking", "elevated"))


def test_a_file_that_is_not_toml_is_refused_in_one_line(tmp_path):
    with pytest.raises(LibraryError, match=r"pieces\.toml: is not valid TOML"):
        read_library(library_file(tmp_path, "[pieces\n"))
    with pytest.raises(LibraryError, match="cannot be read"):
        read_library(tmp_path / "missing.toml")
