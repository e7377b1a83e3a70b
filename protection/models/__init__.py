"""The protection app's models, one module per topic (Django finds them through this package)."""

from protection.models.history import ProtectionEvent

__all__ = ["ProtectionEvent"]
