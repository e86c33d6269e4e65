"""The package speaks of itself, not of the tracker or of plans: what a reader of the code
finds there is true of the code in front of them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "mkdocs_zh_translate"
_ISSUE = re.compile(r"\bissue \d")


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_issue_numbers_in_the_package() -> None:
    found = [f"{p.relative_to(PACKAGE)}:{n}" for p in _sources()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if _ISSUE.search(line)]
    assert found == []


def test_no_front_end_is_announced_as_coming() -> None:
    """``docs`` and ``prefill`` exist: nothing calls them "the coming" ones any more."""
    found = [str(p.relative_to(PACKAGE)) for p in _sources()
             if re.search(r"the coming\s+``", p.read_text(encoding="utf-8"))]
    assert found == []


def _touches_jieba_globals(tree: ast.AST) -> list[int]:
    """Lines that set an attribute under ``jieba`` or call jieba's process-wide setters."""
    lines = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and "jieba" in ast.unparse(target):
                lines.append(node.lineno)
        if isinstance(node, ast.Call) and re.match(r"jieba\.(setLogLevel|set_dictionary|initialize|"
                                                    r"load_userdict|add_word|del_word)", ast.unparse(node.func)):
            lines.append(node.lineno)
    return lines


def test_modules_that_call_themselves_pure_leave_jieba_alone() -> None:
    """A module whose docstring says everything in it is pure sets no process-wide state of
    jieba (its log level, its cache directory, its dictionary)."""
    offenders = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree) or ""
        if re.search(r"\bEverything here is (a )?pure\b", doc):
            offenders += [f"{path.relative_to(PACKAGE)}:{n}" for n in _touches_jieba_globals(tree)]
    assert offenders == []
