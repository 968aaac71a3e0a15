"""Map files: every error located (file:line:col) and listed; the shipped maps load clean."""
from __future__ import annotations

import pytest

from gm.store.errors import MapErrors, UsageError
from gm.games.railway_rivals.hexmaps import load_map, map_path, shipped_maps
from gm.hexmap.mapfile import check_map, parse_map

GOOD = """\
name: Test map
grid: {columns: 6, rows: 5, low_columns: even}
terrain: |
  ...~~~
  .f.~~~
  .m..~~
  .s....
  ......
rivers: ["0102/0202"]
wide_rivers: ["0304/0305"]
impassable_sides: ["0203/0303"]
towns:
  11: {name: Alpha, hex: "0101"}
  12: {name: Béta, hex: "0305", small: true}
  21: {same_as: 12}
start: ["0103", 11]
specials: {S1: {name: Far away, hexes: ["0605"]}}
foreign:
  - {name: Outland, hexes: ["0604", "0605"], entry_hexes: ["0604"], permitted_routes: [["0504", "0604", "0605"]]}
ferries:
  - {id: F1, ends: ["0301", "0403"], cost: 6, use_fee: 5}
rules: {leapfrog: false}
"""


def q(label: str) -> str:
    return f'"{label}"'


def errors(text: str) -> list[str]:
    hexmap, found = parse_map(text, file="m.yaml")
    assert (hexmap is None) == bool(found)
    return [str(e) for e in found]


def at(text: str, needle: str, nth: int = 0) -> str:
    """'m.yaml:LINE:COL' of the nth occurrence of needle (1-based line and column)."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"m.yaml:{line}:{col}"


def test_the_good_map_loads_with_everything_in_place():
    hexmap, found = parse_map(GOOD, file="m.yaml")
    assert found == []
    assert hexmap.name == "Test map" and (hexmap.grid.columns, hexmap.grid.rows) == (6, 5)
    assert hexmap.terrain["0202"] == "f" and hexmap.terrain["0401"] == "~"
    assert hexmap.river_crossing("0202", "0102") == "river"
    assert hexmap.river_crossing("0305", "0304") == "wide"
    assert hexmap.river_crossing("0101", "0102") is None
    assert hexmap.blocked_side("0303", "0203") and not hexmap.blocked_side("0101", "0102")
    assert hexmap.towns[21] is hexmap.towns[12] and hexmap.towns[12].numbers == (12, 21)
    assert hexmap.towns[12].small and hexmap.town_at["0305"].name == "Béta"
    assert hexmap.town_by_name("BETA") is hexmap.towns[12] and hexmap.town_by_name("gamma") is None
    assert hexmap.start == ["0103", "0101"]
    assert hexmap.specials == {"S1": {"name": "Far away", "hexes": ["0605"]}}
    (outland,) = hexmap.foreign
    assert outland.permitted_routes == [["0504", "0604", "0605"]] and outland.terms == {}
    assert hexmap.foreign_at("0605") is outland and hexmap.foreign_at("0505") is None
    assert hexmap.ferry("f1").ends == ["0301", "0403"]
    assert hexmap.buildable("0101") and not hexmap.buildable("0401") and not hexmap.buildable("0707")
    assert hexmap.rules == {"leapfrog": False}


def test_an_unquoted_label_is_refused_with_the_fix():
    text = GOOD.replace('hex: "0101"', "hex: 0101")
    # YAML 1.1 reads 0101 as octal
    assert errors(text) == [f'{at(text, "0101}")}: town 11: hex 0101 is not quoted (YAML reads it as the number '
                            f'65): write "0101", quoted']


def test_an_unquoted_label_that_yaml_keeps_as_text_is_refused_too():
    text = GOOD.replace('start: ["0103", 11]', "start: [0109, 11]")
    assert errors(text) == [f'{at(text, "0109")}: start: hex 0109 is not quoted: write "0109", quoted']


def test_a_malformed_label_is_refused():
    text = GOOD.replace('hex: "0305"', 'hex: "305"')
    where = at(text, q("305"))
    assert errors(text) == [f"{where}: town 12: '305' is not a hex label (four digits CCRR in "
                            f'quotes, like "0301"): write "0305"']


def test_a_ragged_terrain_row():
    text = GOOD.replace("  .m..~~\n", "  .m..~\n")
    line, col = at(text, ".m..~").split(":")[1:]
    # pointed just past the row's end, where the missing hex belongs
    assert errors(text) == [f"m.yaml:{line}:{int(col) + 5}: terrain row 03 has 5 hexes, the grid has 6 columns"]


def test_an_unknown_terrain_letter():
    text = GOOD.replace("  .s....\n", "  .s..q.\n")
    assert errors(text) == [f'{at(text, "q")}: terrain: unknown letter "q" at hex 0504; letters: . plain, '
                            f"f forest, s swamp, m mountain, ~ sea, l lake, x off the map"]


def test_an_upper_case_terrain_letter_gets_a_suggestion():
    text = GOOD.replace("  .s....\n", "  .S....\n")
    assert errors(text)[0].startswith(f'{at(text, "S")}: terrain: unknown letter "S" at hex 0204 '
                                      f'(did you mean "s"?)')


def test_terrain_may_be_a_list_of_rows():
    text = GOOD.replace("terrain: |\n  ...~~~\n  .f.~~~\n  .m..~~\n  .s....\n  ......\n",
                        'terrain: ["...~~~", ".f.~~~", ".m..~~", ".s....", "..q..."]\n')
    assert errors(text) == [f'{at(text, "q")}: terrain: unknown letter "q" at hex 0305; letters: . plain, '
                            f"f forest, s swamp, m mountain, ~ sea, l lake, x off the map"]
    assert parse_map(text.replace("q", "."))[0].terrain == parse_map(GOOD)[0].terrain


def test_too_few_terrain_rows():
    text = GOOD.replace("  ......\n", "")
    assert errors(text) == [f"{at(text, '|')}: terrain has 4 row(s), the grid has 5 rows"]


def test_a_river_between_hexes_that_do_not_touch():
    text = GOOD.replace('rivers: ["0102/0202"]', 'rivers: ["0102/0302"]')
    assert errors(text) == [f"{at(text, q('0102/0302'))}: rivers: hexes 0102 and 0302 are not adjacent, "
                            f"so no side lies between them"]


def test_a_side_that_is_not_two_hexes():
    text = GOOD.replace('wide_rivers: ["0304/0305"]', 'wide_rivers: ["0304-0305"]')
    assert errors(text) == [f"{at(text, q('0304-0305'))}: wide_rivers: '0304-0305' is not a side; write the two "
                            f'hexes it separates, like "1415/1416"']


def test_a_town_at_sea():
    text = GOOD.replace('hex: "0101"', 'hex: "0401"')
    assert errors(text) == [f"{at(text, q('0401'))}: town 11 (Alpha) is on sea at 0401; towns stand on land"]


def test_a_town_off_the_grid():
    text = GOOD.replace('hex: "0101"', 'hex: "0909"')
    assert errors(text) == [f"{at(text, q('0909'))}: town 11: hex 0909 is off the 6x5 grid"]


def test_duplicate_town_numbers():
    text = GOOD.replace("  21: {same_as: 12}", "  12: {name: Gamma, hex: \"0505\"}")
    first_line = at(text, "12:").split(":")[1]
    assert errors(text) == [f"{at(text, '12:', 1)}: towns: duplicate key 12 (first at line {first_line})"]


@pytest.mark.parametrize("number", ["71", "10", "17", "7"])
def test_town_numbers_are_two_dice(number):
    text = GOOD.replace("  11: {name: Alpha", f"  {number}: {{name: Alpha").replace("start: [\"0103\", 11]",
                                                                                   "start: [\"0103\"]")
    assert errors(text) == [f"{at(text, number + ':')}: towns: {int(number)} is not a town number: two digits "
                            f"11-66, the first the sector 1-6, the second 1-6"]


def test_same_as_must_name_a_town():
    text = GOOD.replace("{same_as: 12}", "{same_as: 13}")
    assert errors(text) == [f"{at(text, '13}')}: town 21: same_as 13 is not a town with a name"]


def test_a_ferry_end_off_the_coast():
    text = GOOD.replace('ends: ["0301", "0403"]', 'ends: ["0301", "0104"]')
    assert errors(text) == [f"{at(text, q('0104') + ']')}: ferry F1: end 0104 is not on a coast (a land hex next to "
                            f"sea or lake)"]


def test_foreign_hexes_off_the_grid_and_routes_not_contiguous():
    text = GOOD.replace('hexes: ["0604", "0605"]', 'hexes: ["0604", "0605", "0706"]').replace(
        '[["0504", "0604", "0605"]]', '[["0504", "0605"]]')
    assert errors(text) == [
        f"{at(text, q('0706'))}: foreign Outland: hexes: hex 0706 is off the 6x5 grid",
        f"{at(text, q('0605') + ']]')}: foreign Outland: route 1 is not contiguous: 0504 and 0605 are not adjacent",
    ]


def test_a_permitted_route_over_the_sea():
    text = GOOD.replace('[["0504", "0604", "0605"]]', '[["0604", "0504", "0503"]]')
    assert errors(text) == [f"{at(text, q('0503'))}: foreign Outland: route 1: hex 0503 is sea; track needs land"]


def test_an_entry_hex_outside_the_country():
    text = GOOD.replace('entry_hexes: ["0604"]', 'entry_hexes: ["0504"]')
    where = at(text, "[" + q("0504") + "]")
    assert errors(text) == [f"{where}: foreign Outland: entry hex 0504 is not one of its hexes"]


def test_an_unknown_key_gets_did_you_mean():
    text = GOOD.replace("rivers:", "rivres:", 1)
    assert errors(text) == [f'{at(text, "rivres")}: map: unknown key "rivres" (did you mean "rivers"?)']


def test_starting_points_must_be_land_or_towns():
    text = GOOD.replace('start: ["0103", 11]', 'start: ["0601", 33]')
    assert errors(text) == [f"{at(text, q('0601'))}: start: hex 0601 is sea; a starting point must be land",
                            f"{at(text, '33]')}: start: 33 is not a town number on this map"]


def test_a_yaml_syntax_error_is_located():
    text = GOOD.replace("towns:\n", "towns: [\n")
    (only,) = errors(text)
    assert only.startswith("m.yaml:") and "not valid YAML" in only


def test_every_error_of_a_file_is_listed_in_file_order():
    text = (GOOD.replace('hex: "0101"', "hex: 0101").replace("  .s....\n", "  .s..q.\n")
            .replace('rivers: ["0102/0202"]', 'rivers: ["0102/0302"]').replace("rivers:", "rivres:", 1)
            .replace('ends: ["0301", "0403"]', 'ends: ["0301", "0104"]'))
    found = errors(text)
    assert len(found) == 4  # the misspelt key hides the bad river inside it
    lines = [int(e.split(":")[1]) for e in found]
    assert lines == sorted(lines)


def test_load_map_raises_all_errors_and_check_map_lists_them(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace('hex: "0101"', "hex: 0101").replace("rivers:", "rivres:", 1), encoding="utf-8")
    with pytest.raises(MapErrors) as caught:
        load_map(bad)
    assert [str(e) for e in caught.value.errors] == [str(e) for e in check_map(bad)]
    assert len(caught.value.errors) == 2 and str(caught.value.errors[0]).startswith(f"{bad}:")
    good = tmp_path / "good.yaml"
    good.write_text(GOOD, encoding="utf-8")
    assert load_map(good).path == good and check_map(good) == []


def test_an_unknown_shipped_map_suggests_the_nearest():
    with pytest.raises(UsageError, match='no railway-rivals map named "tutorail" \\(did you mean "tutorial"\\?\\)'):
        map_path("tutorail")


# --- the shipped maps --------------------------------------------------------------------------------------
def test_both_shipped_maps_are_clean():
    assert {"tutorial", "scotland"} <= set(shipped_maps())
    for name in ("tutorial", "scotland"):
        assert check_map(map_path(name)) == [], name


def test_the_tutorial_map():
    m = load_map("tutorial")
    assert 18 <= m.grid.columns <= 22 and 13 <= m.grid.rows <= 17
    assert len(m.towns) == 12 and len(m.start) >= 2 and len(m.specials) == 1
    assert {"f", "s", "m"} <= set(m.terrain.values()) and m.rivers
    # the rules' worked example, moved 20 columns left and 14 rows up
    assert m.town_at["0506"].name == "Isengard" and m.town_at["0510"].name == "Helm's Deep"
    assert m.town_at["0709"].name == "Edoras" and m.river_crossing("0507", "0508") == "river"
    assert m.grid.straight_between("0508", "0910") == ["0608", "0709", "0809"]
    assert m.town_by_name("anorien").name == "Anórien"
    # the example of the design notes: blue "(0203) 0207" into a town, red starts at 0908
    assert {"0203", "0908"} <= set(m.start) and m.grid.straight_between("0203", "0207") is not None
    assert "0207" in m.town_at


def test_the_campaign_map_of_scotland():
    m = load_map("scotland")
    assert m.grid.columns * m.grid.rows >= 40 * 30
    assert sorted(m.towns) == [10 * s + t for s in range(1, 7) for t in range(1, 7)]
    assert len(m.town_list()) == 36
    assert set(m.terrain.values()) == set(".fsm~lx")
    assert m.rivers and m.wide_rivers and m.impassable_sides and m.ferries and m.specials and m.start
    (england,) = m.foreign
    assert england.permitted_routes and england.entry_hexes
    assert sum(1 for letter in m.terrain.values() if letter == "m") >= 150  # leapfrog country
    assert m.rules["leapfrog"] is True
    for ferry in m.ferries:
        assert all(m.is_coast(end) for end in ferry.ends)


def test_the_pure_python_yaml_loader_reports_the_same(monkeypatch):
    import yaml

    from gm.hexmap import yamlnodes

    text = (GOOD.replace('hex: "0101"', "hex: 0101").replace("  .s....\n", "  .s..q.\n")
            .replace('ends: ["0301", "0403"]', 'ends: ["0301", "0104"]'))
    fast = errors(text)
    monkeypatch.setattr(yamlnodes, "_Loader", yaml.SafeLoader)
    assert errors(text) == fast and len(fast) == 3
    assert parse_map(GOOD)[0].start == ["0103", "0101"]
