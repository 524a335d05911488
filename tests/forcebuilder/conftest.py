from __future__ import annotations

import pytest

from forcebuilder.models import Force
from tests.factories import LEGAL_DOCUMENT, make_force

__all__ = ["LEGAL_DOCUMENT"]  # imported from here by older tests


@pytest.fixture
def force(owner) -> Force:
    return make_force(owner)
