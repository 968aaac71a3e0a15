"""Player ids in event texts become names, but an id that is an everyday word stays a word."""
from gm.report import _namer


def test_ids_become_names_in_event_texts():
    rename = _namer({"ann": "Ann Lee", "bob": "Bob", "red-team": "The Reds"})
    assert rename("ann pays bob 3; red-team waits; annex and bobbin stay") == \
        "Ann Lee pays Bob 3; The Reds waits; annex and bobbin stay"


def test_an_id_that_is_an_everyday_word_is_left_alone():
    rename = _namer({"a": "Alice", "i": "Ivo", "me": "Mei", "b": "Bruce"})
    assert rename("B sent no orders: a default build was made for them, says b") == \
        "B sent no orders: a default build was made for them, says Bruce"
