"""The API's JSON parser: refuses, before parsing, a body over ``API_MAX_BODY_BYTES``, a body
nested deeper than ``API_MAX_JSON_DEPTH``, and NaN or Infinity (JSON has neither), each with a
400 (413 for the size) and a code, instead of a 500."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser


class BodyTooLarge(APIException):
    status_code = 413
    default_code = "too_large"
    default_detail = "The request body is too large."


class BadJson(ParseError):
    default_code = "bad_json"


def _no_constant(name: str) -> Any:
    raise BadJson(f"{name} is not a number JSON has; send a finite number.")


def nesting_depth(text: str) -> int:
    """The deepest nesting of arrays and objects, brackets inside strings aside (a linear scan)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class StrictJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = int(getattr(settings, "API_MAX_BODY_BYTES", 64 * 1024))
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise BodyTooLarge(f"The request body is larger than {limit} bytes.")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJson("The body must be UTF-8 JSON.") from None
        if nesting_depth(text) > int(getattr(settings, "API_MAX_JSON_DEPTH", 8)):
            raise BadJson("The JSON is nested too deeply.")
        try:
            return json.loads(text, parse_constant=_no_constant)
        except (ValueError, RecursionError) as error:
            if isinstance(error, BadJson):
                raise
            raise BadJson(f"The body is not valid JSON: {error}") from None
