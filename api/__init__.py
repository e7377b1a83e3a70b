"""The REST API for players, programs and staff (DRF, OpenAPI schema): a thin layer that parses
requests and calls the services of the apps below.

Layer: the top of the apps, beside the back office. May import every app below and the back
office's read-only report builders; nothing imports it but the URLs.
"""
