"""JSON text for the hot paths (``jsontext``, orjson): the same values as the standard library's
``json`` reads and writes, in compact UTF-8 text."""

from __future__ import annotations

import json

import pytest

from hotpath import jsontext


def test_it_writes_what_json_reads_back_the_same():
    value = {"v": 7, "to": None, "data": {"card": "10♥", "amounts": [1800, 0], "ok": True}, "ms": 1.5}
    text = jsontext.dumps(value)
    assert json.loads(text) == value
    assert jsontext.loads(text) == value
    assert jsontext.loads(json.dumps(value)) == value
    # Compact, with the rupee sign and the suits as themselves.
    assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert "₹" in jsontext.dumps({"m": "₹1,25,000.50"})


def test_keys_that_are_not_strings_are_written_as_json_writes_them():
    assert jsontext.dumps({1: "a", "2": "b"}) == json.dumps({1: "a", "2": "b"}, separators=(",", ":"))


def test_text_that_is_not_json_is_a_value_error():
    with pytest.raises(ValueError, match=r"line 1 column 2"):
        jsontext.loads("{not json")
