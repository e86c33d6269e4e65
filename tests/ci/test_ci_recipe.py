"""The CI recipe of the user guide (example_site/docs/guide/ci.md), run end to end locally.

The page includes the workflow (``example_site/snippets/ci/docs.yml``) and the ``.gitignore``
(``.../ci/gitignore``) verbatim; these tests read the same two files. ``_Runner`` plays GitHub
Actions for that workflow: every ``run:`` step runs as written with bash (only its
``pip install`` lines are dropped: no network here), ``if:`` conditions and ``${{ }}``
expressions (``hashFiles``, ``env``) are evaluated, and ``actions/cache`` restores and saves
directories in a local store that outlives a run, with GitHub's exact-key and ``restore-keys``
rules. Each run is a fresh ``git clone`` at a new path, so nothing but the restored caches
carries over. The one substitution: the workflow exports ``$ZH_MODEL`` (a Hub id), which the
test points at the tiny model's ``save_pretrained`` directory, so the real export command runs.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.plugin_sites import write_site

REPO = Path(__file__).resolve().parents[2]
CI_SNIPPETS = REPO / "example_site" / "snippets" / "ci"
WORKFLOW = CI_SNIPPETS / "docs.yml"
GITIGNORE = CI_SNIPPETS / "gitignore"
GUIDE = REPO / "example_site" / "docs" / "guide" / "ci.md"

SUMMARY = re.compile(r"zh-translate: (\d+) segments \((\d+) unique\), (\d+) from cache, (\d+) translated, [^\n]*")
REVIEWED_EN = "You need Python and a cache directory."
REVIEWED_ZH = "你需要 Python 和一个缓存目录。"
REVIEW_PO = f'''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

#: docs/guide/install.md:11
msgid "{REVIEWED_EN}"
msgstr "{REVIEWED_ZH}"
'''


def _workflow() -> dict[str, Any]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _steps() -> list[dict[str, Any]]:
    return _workflow()["jobs"]["build"]["steps"]  # type: ignore[no-any-return]


def _pip_lines() -> list[str]:
    return [line for step in _steps() for line in str(step.get("run", "")).splitlines() if line.startswith("pip ")]


# --- a fast check that the page shows what the slow test runs ---------------------------------


def test_the_guide_includes_the_workflow_and_gitignore_verbatim_and_pins_what_the_project_pins() -> None:
    page = GUIDE.read_text(encoding="utf-8")
    assert '--8<-- "ci/docs.yml"' in page and '--8<-- "ci/gitignore"' in page
    site = yaml.load((REPO / "example_site" / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    assert {"Continuous integration": "guide/ci.md"} in site["nav"]
    assert "model: models/opus-mt-en-zh" in page  # the directory the workflow exports to
    from mkdocs_zh_translate import __version__

    assert _workflow()["env"]["ZH_TRANSLATE"] == __version__
    # the export extra pins torch exactly; the workflow installs that torch from the CPU index
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    torch_pin = re.search(r'"(torch==[^"]+)"', pyproject)
    assert torch_pin and any(line.startswith(f"pip install {torch_pin.group(1)} ") for line in _pip_lines())
    ignored = [line for line in GITIGNORE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert ignored == [".zh-translate-cache/", "models/", "site/"]


# --- a local GitHub Actions for this one workflow ---------------------------------------------


@dataclass
class _Result:
    rc: int
    log: str
    ran: list[str]  # ids (or `uses`) of the steps that ran
    failed: str | None
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    seconds: float = 0.0
    step_seconds: dict[str, float] = field(default_factory=dict)  # per `run:` step

    @property
    def summary(self) -> re.Match[str]:
        found = SUMMARY.findall(self.log)
        assert len(found) == 1, self.log[-3000:]
        match = SUMMARY.search(self.log)
        assert match
        return match


class _Runner:
    """Runs the workflow's steps in a checkout; ``store`` is the cache service (key -> copy)."""

    def __init__(self, root: Path, env: Mapping[str, str]) -> None:
        self.root = root
        self.store: dict[str, Path] = {}  # in insertion order: the newest last
        self.env = dict(env)
        self.runs = 0

    def run(self, origin: Path, *, without: frozenset[str] = frozenset()) -> tuple[Path, _Result]:
        """A fresh clone of ``origin`` at a new path, then the job; ``without``: step ids removed."""
        self.runs += 1
        checkout = self.root / f"runner-{self.runs}" / "work"
        subprocess.run(["git", "clone", "-q", str(origin), str(checkout)], check=True)
        workflow = _workflow()
        env = {**os.environ, **{k: str(v) for k, v in workflow["env"].items()}, **self.env}
        outputs: dict[str, dict[str, str]] = {}
        saves: list[tuple[str, Path]] = []
        ran: list[str] = []
        log: list[str] = []
        timings: dict[str, float] = {}
        started = time.perf_counter()
        for step in workflow["jobs"]["build"]["steps"]:
            name = step.get("id") or step.get("uses") or step["run"].split("\n")[0]
            if name in without or not self._condition(step.get("if"), outputs):
                continue
            ran.append(name)
            uses = step.get("uses", "")
            if uses.startswith(("actions/cache@", "actions/cache/restore@", "actions/cache/save@")):
                path = checkout / step["with"]["path"]
                key = self._expand(step["with"]["key"], checkout, env, outputs)
                if uses.startswith("actions/cache/save@"):  # saved now, after the steps before it
                    self._save(key, path)
                    continue
                restore_keys = self._expand(step["with"].get("restore-keys", ""), checkout, env, outputs)
                hit = self._restore(path, key, restore_keys)
                outputs[name] = {"cache-hit": hit}
                if hit != "true" and uses.startswith("actions/cache@"):
                    saves.append((key, path))
            elif uses:
                assert uses.split("@")[0] in {"actions/checkout", "actions/setup-python", "actions/upload-pages-artifact"}
            else:
                script = "\n".join(line for line in step["run"].splitlines() if not line.startswith("pip "))
                began = time.perf_counter()
                step_outputs = checkout.parent / f"github-output-{len(ran)}"
                step_outputs.write_text("", encoding="utf-8")
                proc = subprocess.run(
                    ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                    cwd=checkout, env={**env, "GITHUB_OUTPUT": str(step_outputs)},
                    capture_output=True, text=True, timeout=900,
                )
                log.append(proc.stdout + proc.stderr)
                timings[name] = time.perf_counter() - began
                lines = step_outputs.read_text(encoding="utf-8").splitlines()
                outputs[name] = dict(line.split("=", 1) for line in lines if "=" in line)
                if proc.returncode:
                    return checkout, _Result(
                        proc.returncode, "".join(log), ran, name, outputs, time.perf_counter() - started, timings
                    )
        for key, path in saves:  # the post-job step: only after a job that succeeded, new keys only
            self._save(key, path)
        return checkout, _Result(0, "".join(log), ran, None, outputs, time.perf_counter() - started, timings)

    def _save(self, key: str, path: Path) -> None:
        """GitHub's cache service: a key is written once (a second save of it is refused)."""
        if key not in self.store and path.is_dir():
            self.store[key] = self.root / "cache-store" / hashlib.sha256(key.encode()).hexdigest()[:16]
            shutil.copytree(path, self.store[key])

    def _restore(self, path: Path, key: str, restore_keys: str) -> str:
        if key in self.store:
            shutil.copytree(self.store[key], path)
            return "true"
        for prefix in restore_keys.split():
            partial = [k for k in self.store if k.startswith(prefix)]
            if partial:
                shutil.copytree(self.store[partial[-1]], path)  # the newest match
                return "false"
        return ""

    @staticmethod
    def _condition(condition: str | None, outputs: dict[str, dict[str, str]]) -> bool:
        if condition is None:
            return True
        result = True
        for part in condition.split(" && "):
            match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+) (!=|==) '([^']*)'", part.strip())
            assert match, f"the test's runner does not know the condition {part!r}"
            step, output, op, wanted = match.groups()
            found = outputs.get(step, {}).get(output, "")  # GitHub: a missing output is ''
            result = result and ((found != wanted) if op == "!=" else (found == wanted))
        return result

    def _expand(self, text: str, checkout: Path, env: Mapping[str, str], outputs: dict[str, dict[str, str]]) -> str:
        def value(match: re.Match[str]) -> str:
            expr = match.group(1).strip()
            if expr.startswith("env."):
                return env[expr[4:]]
            if expr == "github.run_id":
                return str(self.runs)
            step_output = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
            if step_output:
                return outputs.get(step_output.group(1), {}).get(step_output.group(2), "")
            files = re.fullmatch(r"hashFiles\((.*)\)", expr)
            assert files, f"the test's runner does not know {expr!r}"
            digest = hashlib.sha256()
            for pattern in re.findall(r"'([^']*)'", files.group(1)):
                # GitHub's `dir/**` matches every file below; pathlib's (before 3.13) only folders
                pattern = pattern + "/*" if pattern.endswith("**") else pattern
                for path in sorted(p for p in checkout.glob(pattern) if p.is_file()):
                    digest.update(hashlib.sha256(path.read_bytes()).digest())
            return digest.hexdigest()

        return re.sub(r"\$\{\{([^}]*)\}\}", value, text)


def _git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True)
    return proc.stdout


def _commit(repo: Path, message: str) -> None:
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message)


def _edit(repo: Path, page: str, old: str, new: str) -> None:
    path = repo / "docs" / page
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def _zh_pages(site: Path) -> dict[str, str]:
    """The Chinese pages minus the build date MkDocs writes into the home page."""
    return {
        str(p.relative_to(site)): re.sub(r"Build Date UTC : [^\n]*", "", p.read_text(encoding="utf-8"))
        for p in sorted((site / "zh").rglob("*.html"))
    }


SNIPPET_EN = "Snippets are translated with the page that includes them."


def _edit_file(repo: Path, relative: str, old: str, new: str) -> None:
    path = repo / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.slow  # trains the tiny model the first time (cached afterwards)
def test_ci_recipe_cold_warm_partial_snippet_and_no_model_runs(tmp_path: Path) -> None:
    from tests.models import tiny_hf_model

    # The team's repository: the site (a page includes a snippet from outside docs/, as the
    # project's own guide does), the reviewed PO file, the guide's .gitignore and workflow.
    origin = tmp_path / "origin"
    snippets = {"pymdownx.snippets": {"base_path": ["snippets"], "check_paths": True}}
    write_site(origin, plugin={"model": "models/opus-mt-en-zh"}, extra_config={"markdown_extensions": [snippets]})
    _edit_file(origin, "docs/guide/usage.md", "# Usage\n", '# Usage\n\n--8<-- "note.md"\n')
    (origin / "snippets").mkdir()
    (origin / "snippets" / "note.md").write_text(SNIPPET_EN + "\n", encoding="utf-8")
    (origin / "translations" / "zh" / "guide").mkdir(parents=True)
    (origin / "translations" / "zh" / "guide" / "install.md.po").write_text(REVIEW_PO, encoding="utf-8")
    shutil.copy(GITIGNORE, origin / ".gitignore")
    (origin / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(WORKFLOW, origin / ".github" / "workflows" / "docs.yml")
    _git(origin, "init", "-q")
    _commit(origin, "site")

    bin_dir = str(Path(sys.executable).parent)  # mkdocs, mkdocs-zh-translate of this environment
    runner = _Runner(tmp_path, {
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "PYTHONPATH": str(REPO),
        "ZH_MODEL": str(tiny_hf_model()),  # instead of the Hub id: the same export command
    })
    decisions: list[tuple[str, str, list[str]]] = []  # (run, plan's missing, model steps that ran)

    def run(label: str, **kwargs: Any) -> tuple[Path, _Result]:
        checkout, result = runner.run(origin, **kwargs)
        model_steps = [s for s in ("model", "export", "zh-cache-save") if s in result.ran]
        decisions.append((label, result.outputs.get("plan", {}).get("missing", "-"), model_steps))
        return checkout, result

    # 1. cold: nothing cached; the plan says the model is needed: exported, every unreviewed
    #    segment translated (the snippet's too), the cache saved after the build
    cold_dir, cold = run("cold")
    assert cold.rc == 0, cold.log[-3000:]
    assert cold.ran == [
        "actions/checkout@v4", "actions/setup-python@v5", _pip_lines()[0], "zh-cache", "plan", "model", "export",
        "reviews", "build", "zh-cache-save", "actions/upload-pages-artifact@v3",
    ]
    assert int(cold.outputs["plan"]["missing"]) == int(cold.summary.group(4)) > 0
    assert re.fullmatch(r"[0-9a-f]{64}", cold.outputs["plan"]["fingerprint"])
    assert (cold_dir / "models" / "opus-mt-en-zh" / "manifest.json").is_file()
    assert cold.summary.group(0).endswith("model loaded")
    assert "review check: 1 of " in cold.log and ": ok" in cold.log
    cold_pages = _zh_pages(cold_dir / "site")
    assert REVIEWED_ZH in cold_pages["zh/guide/install/index.html"]
    assert SNIPPET_EN not in cold_pages["zh/guide/usage/index.html"]  # translated with its page
    # what the run made is ignored: nothing to commit
    assert _git(cold_dir, "status", "--porcelain", "--untracked-files=all") == ""

    # 2. nothing changed, another path: nothing missing; no model restored, exported or loaded
    warm_dir, warm = run("unchanged")
    assert warm.rc == 0, warm.log[-3000:]
    assert warm.outputs["plan"]["missing"] == "0" and warm.outputs["zh-cache"] == {"cache-hit": "false"}
    assert "model" not in warm.ran and "export" not in warm.ran and not (warm_dir / "models").exists()
    assert warm.summary.group(4) == "0" and warm.summary.group(0).endswith("model not loaded")
    assert _zh_pages(warm_dir / "site") == cold_pages

    # 3. one paragraph of a page edited: one missing; the model comes from its cache
    _edit(origin, "guide/usage.md", "Run the build command;", "Run the build command twice;")
    _commit(origin, "edit usage")
    _, partial = run("page changed")
    assert partial.rc == 0, partial.log[-3000:]
    assert partial.outputs["plan"]["missing"] == "1" and partial.outputs["model"] == {"cache-hit": "true"}
    assert "export" not in partial.ran and "zh-cache-save" in partial.ran
    assert partial.summary.group(4) == "1" and partial.summary.group(0).endswith("model loaded")

    # 4. only the snippet edited (outside docs/): the plan sees it, as the build reads it
    _edit_file(origin, "snippets/note.md", "with the page", "together with the page")
    _commit(origin, "edit snippet")
    snippet_dir, snippet = run("snippet changed")
    assert snippet.rc == 0, snippet.log[-3000:]
    assert snippet.outputs["plan"]["missing"] == "1" and "model" in snippet.ran
    assert snippet.summary.group(4) == "1" and snippet.summary.group(0).endswith("model loaded")
    assert "together with the page" not in _zh_pages(snippet_dir / "site")["zh/guide/usage/index.html"]

    # 5. another edit, and a workflow without the model steps: the build refuses to ship English
    #    and saves nothing; the next run with them plans again and recovers
    _edit(origin, "index.md", "This site explains", "This site describes")
    _commit(origin, "edit home")
    _, bare = run("model missing", without=frozenset({"model", "export"}))
    assert bare.rc != 0 and bare.failed == "build" and "zh-cache-save" not in bare.ran
    refusals = [line for line in bare.log.splitlines() if "have no reviewed or cached translation" in line
                or "has no reviewed or cached translation" in line]
    assert len(refusals) == 1 and "1 segment on 1 page has" in refusals[0], bare.log[-3000:]
    assert "Traceback" not in bare.log
    _, recovered = run("next run")
    assert recovered.rc == 0, recovered.log[-3000:]
    assert recovered.outputs["plan"]["missing"] == "1" and recovered.summary.group(4) == "1"

    # 6. ... unless a partly English deploy is allowed
    config = origin / "mkdocs.yml"
    data = yaml.safe_load(config.read_text(encoding="utf-8"))
    data["plugins"][1]["zh-translate"]["allow_untranslated"] = True
    config.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    _edit(origin, "index.md", "This site describes", "This site covers")
    _commit(origin, "allow untranslated")
    allowed_dir, allowed = run("model missing, allowed", without=frozenset({"model", "export"}))
    assert allowed.rc == 0, allowed.log[-3000:]
    assert "This site covers" in (allowed_dir / "site" / "zh" / "index.html").read_text(encoding="utf-8")

    # 7. the reviewed sentence changed in English: the reviews step fails before the build
    _edit(origin, "guide/install.md", REVIEWED_EN, "You need Python 3.10 and a cache directory.")
    _commit(origin, "edit reviewed")
    _, stale = run("stale review")
    assert stale.rc == 1 and stale.failed == "reviews"
    assert ", 1 stale, 0 rejected: more than 0 stale" in stale.log

    print("\nCI recipe decisions (run: plan's missing, model steps that ran):")
    for label, missing, steps in decisions:
        print(f"  {label}: missing={missing}, {', '.join(steps) or 'no model steps'}")
    for label, result in (("cold", cold), ("warm", warm), ("partial", partial)):
        steps = ", ".join(f"{name} {seconds:.1f}" for name, seconds in result.step_seconds.items() if name != _pip_lines()[0])
        print(f"\nCI recipe, {label} run: {result.seconds:.1f} s ({steps})")
