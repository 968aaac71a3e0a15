"""The dice against vectors worked out by hand from DESIGN.md's algorithm."""
import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.store.dice import Dice, commitment, roll_value, turn_seed, verify_log

MASTER = bytes(range(32))
SEED1 = bytes.fromhex("fc5135b1f53ee99c87db45e5259c953cc01fe2cb987dba39c48b7e20714e8c8d")


def test_turn_seed_is_hmac_of_turn_label():
    assert turn_seed(MASTER, 1) == SEED1
    assert turn_seed(MASTER, 1) == hmac.new(MASTER, b"turn:1", hashlib.sha256).digest()


def test_commitment_is_sha256_of_seed():
    assert commitment(SEED1) == "690e8776ef383a6886061cbad5b5c30b2fe8fed1f3d609b55cc98f0276e84474"


@pytest.mark.parametrize("label,index,sides,value", [
    # first byte 0x40 = 64 < 252 -> 1 + 64 % 6 = 5
    ("build round 1", 0, 6, 5),
    # first byte 0x80 = 128 -> 1 + 128 % 6 = 3
    ("build round 1", 1, 6, 3),
    # first byte 0x55 = 85 -> 1 + 85 % 6 = 2
    ("race 3 blue", 0, 6, 2),
    # n = 52: limit 208; first byte 0x71 = 113 -> 1 + 113 % 52 = 10
    ("shuffle deck", 0, 52, 10),
    # n = 20: limit 240; first byte 0xe8 = 232 -> 1 + 232 % 20 = 13
    ("d20", 0, 20, 13),
    # first byte 0xff = 255 >= 252 is skipped; the second, 0xd2 = 210 -> 1 + 210 % 6 = 1
    ("reject", 41, 6, 1),
])
def test_roll_vectors(label, index, sides, value):
    assert roll_value(SEED1, label, index, sides) == value


def test_dice_counts_rolls_per_label():
    dice = Dice(SEED1)
    assert [dice.roll("build round 1"), dice.roll("race 3 blue"), dice.roll("build round 1")] == [5, 2, 3]
    assert [e["index"] for e in dice.log] == [0, 0, 1]
    assert verify_log(SEED1, dice.log) == []


def test_shuffle_is_fisher_yates_from_the_top():
    dice = Dice(SEED1)
    items = list(range(6))
    out = dice.shuffle("shuffle deck", items)
    # recompute by hand: swap i with roll(i + 1) - 1 for i = 5 .. 1, all under one label
    expect = list(range(6))
    for k, i in enumerate(range(5, 0, -1)):
        j = roll_value(SEED1, "shuffle deck", k, i + 1) - 1
        expect[i], expect[j] = expect[j], expect[i]
    assert out == expect and sorted(out) == items and items == list(range(6))
    assert [e["sides"] for e in dice.log] == [6, 5, 4, 3, 2]


def test_fixed_dice_come_first_then_seeded():
    fixed = [4, 2]
    dice = Dice(SEED1, fixed=fixed)
    assert [dice.roll("a"), dice.roll("a"), dice.roll("build round 1")] == [4, 2, 5]
    assert fixed == []


def test_fixed_die_must_fit():
    with pytest.raises(ValueError):
        Dice(SEED1, fixed=[7]).roll("a", 6)


def test_secret_rolls_use_the_secret_seed():
    secret = turn_seed(MASTER, 1, secret=True)
    assert secret != SEED1
    dice = Dice(SEED1, secret_seed=secret)
    value = dice.roll("shuffle deck", 52, secret=True)
    assert value == roll_value(secret, "shuffle deck", 0, 52)
    assert dice.log[0]["secret"] is True
    assert verify_log(SEED1, dice.log, secret_seed=secret) == []


def test_verify_log_finds_a_changed_roll():
    log = [{"label": "build round 1", "index": 0, "sides": 6, "value": 6}]
    assert "logged 6, the seed gives 5" in verify_log(SEED1, log)[0]


@given(st.binary(min_size=32, max_size=32), st.text(max_size=20), st.integers(0, 50), st.integers(1, 256))
def test_rolls_are_in_range(seed, label, index, sides):
    assert 1 <= roll_value(seed, label, index, sides) <= sides


def test_more_than_256_sides_is_refused():
    with pytest.raises(ValueError):
        roll_value(SEED1, "x", 0, 257)
