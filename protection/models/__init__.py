"""The protection app's models, one module per topic (Django finds them through this package)."""

from protection.models.exclusion import Exclusion, ExclusionKind
from protection.models.freeze import MoneyPlayFreeze
from protection.models.history import ProtectionEvent
from protection.models.kyc import DocumentType, KycStatus, Verification
from protection.models.limits import LimitChange, LimitKind
from protection.models.regions import RegionChange, RegionChangeStatus

__all__ = [
    "DocumentType",
    "Exclusion",
    "ExclusionKind",
    "KycStatus",
    "LimitChange",
    "LimitKind",
    "MoneyPlayFreeze",
    "ProtectionEvent",
    "RegionChange",
    "RegionChangeStatus",
    "Verification",
]
