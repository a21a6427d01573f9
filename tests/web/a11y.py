"""The accessibility audit of the browser tests: axe-core run in the page.

``axe-playwright-python`` ships axe-core and injects it into the page; the tests
refuse every violation of impact *serious* or *critical* (WCAG 2 A and AA rules and
axe's best practices), printing the rule, its help text and the elements at fault.
"""

from __future__ import annotations

from typing import Any

import pytest

#: The impacts a page may not have.
REFUSED = ("serious", "critical")


def serious_violations(page: Any) -> list[str]:
    """Every serious or critical axe violation of ``page`` as it is now, one line each."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="needs axe")
    results = axe.Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in REFUSED:
            continue
        nodes = violation["nodes"]
        targets = [" ".join(map(str, node["target"])) for node in nodes[:4]]
        found.append(
            f"{violation['impact']} {violation['id']}: {violation['help']} "
            f"({len(nodes)} elements, e.g. {targets}; first: {nodes[0].get('failureSummary', '')})"
        )
    return found
