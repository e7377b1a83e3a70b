"""Installable: a web manifest with 192 and 512 px icons, and a favicon, linked from every page."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse


def static_file(path: str) -> Path:
    found = finders.find(path)
    assert found, f"no static file {path}"
    return Path(str(found))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_and_its_192_and_512_icons():
    manifest = json.loads(static_file("manifest.webmanifest").read_text())
    assert manifest["name"] == "Rummy"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/games/"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    for size in (192, 512):
        icon = sizes[f"{size}x{size}"]
        assert icon["type"] == "image/png"
        assert png_size(static_file(icon["src"])) == (size, size)


def test_the_favicon_is_a_vector_drawing():
    svg = static_file("icons/favicon.svg").read_text()
    assert svg.startswith("<svg")
    assert "viewBox" in svg


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_the_favicon(client):
    page = client.get(reverse("accounts:login")).content.decode()
    assert 'rel="manifest"' in page
    assert "manifest.webmanifest" in page
    assert 'rel="icon"' in page
    assert "favicon.svg" in page
    assert "icon-192.png" in page


def test_favicon_ico_leads_to_the_sites_icon_for_pages_that_name_none(client):
    """The admin's pages link no icon, so browsers ask for /favicon.ico: not a 404."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 301
    assert answer["Location"].endswith("favicon.svg")
    assert static_file("icons/favicon.svg").read_text().lstrip().startswith("<svg")
