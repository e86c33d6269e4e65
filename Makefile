# Two entry points, both usable on a fresh machine with no internet (package registries only):
#   make site   builds the example site (English in example_site/site, Chinese in .../site/zh)
#   make test   runs the gates (ruff, mypy --strict, import contracts) and the whole test suite
#               on every core
# Both create .venv on first use; `make site` installs only what the demo needs (runtime, export
# and the example site's theme), `make test` adds the test and benchmark tools. The demo model is
# built into .cache/, the test models (and the sdists the tests read) into the user's cache,
# ~/.cache/mkdocs-zh-translate/, shared by every clone and worktree (tests/models.py); all reused.

VENV   ?= .venv
PY     := $(VENV)/bin/python
SITE_STAMP := $(VENV)/.site-stamp
TEST_STAMP := $(VENV)/.test-stamp

.PHONY: site test lint install clean clean-cache bench browser gettext

$(PY):
	python3 -m venv $(VENV)

# uv with pip's own package sources when it can (~11 s instead of ~100 s), pip otherwise.
PIP_INSTALL := $(PY) -m tools.install

# The suite starts hundreds of Python processes (mkdocs, sphinx, the CLI); with
# PYTHONDONTWRITEBYTECODE set (container images often set it) each one would compile the package
# and the tests from source again. Bytecode goes to __pycache__/ (ignored by git).
unexport PYTHONDONTWRITEBYTECODE

$(SITE_STAMP): pyproject.toml | $(PY)
	$(PIP_INSTALL) -e ".[export,demo]"
	touch $@

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PIP_INSTALL) -e ".[export,demo,test,bench,ray,realsites,eval,genai]"
	touch $@ $(SITE_STAMP)

install: $(TEST_STAMP)

# The browser test drives Debian's headless Chromium through chromedriver; install both when either
# is missing and we may (a machine with chromium but no driver would otherwise skip it silently).
browser:
	@if { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; } \
		&& [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver \
		|| echo "could not install chromium and chromium-driver: the browser test will be skipped"; \
	elif ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
		echo "chromium or chromedriver missing and not root: the browser test will be skipped"; fi

# The gates: each fails the build on its own findings (configured in pyproject.toml; lizard here:
# no function of the package over cyclomatic complexity 25, `and`/`or` counted, stricter than
# ruff's C901 which counts branches only).
lint: $(TEST_STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports
	$(PY) -m lizard -C 25 -w mkdocs_zh_translate

# The PO layout tests compare our files with GNU gettext's msgcat/msgfmt; install it when missing.
gettext:
	@if ! command -v msgcat >/dev/null && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gettext \
		|| echo "could not install gettext: the msgcat comparison tests will be skipped"; fi

# The suite runs on every core (pytest-xdist; tests/conftest.py schedules one test file per worker
# at a time, so a file's shared fixtures are made once, and the real sites one site at a time);
# the slowest tests are listed at the end. The two tiny test models (minutes of training, one
# core each) start building in the background first, while the gates run; their logs go to
# .cache/. The suite starts before they are done (ZH_TRANSLATE_MODELS_AHEAD), niced so that the
# trainings keep their cores (the test model's is the run's longest path; beside an un-niced
# suite it took 391 s instead of ~230): the real sites (no model, long timeouts) fill what the
# trainings leave, the files that need a model come last (tests/conftest.py) and wait for it
# through the model cache's lock (tests/models.py). A failing gate stops the builds and fails
# the run before any test. (`make -n test` lists the gates only: a recipe that runs $(MAKE) is run even
# by -n.)
MODELS := test tagfree
# The other model families' tiny models (tests/tiny_families.py), one after the other in a third job.
FAMILY_MODELS := m2m100 nllb
DRY_RUN = $(findstring n,$(firstword -$(MAKEFLAGS)))

test: $(TEST_STAMP)
	@if [ -n "$(DRY_RUN)" ]; then echo "build $(MODELS) models in the background (python -m tests.models), then $(FAMILY_MODELS) (python -m tests.models_families)"; \
		$(MAKE) --no-print-directory lint browser gettext; echo "ZH_TRANSLATE_MODELS_AHEAD=1 nice -n 10 $(PY) -m pytest -q -n auto --durations=15"; exit 0; fi; \
	mkdir -p .cache; pids=; trap 'kill $$pids 2>/dev/null' INT TERM; \
	for preset in $(MODELS); do \
		$(PY) -m tests.models $$preset >.cache/models-$$preset.log 2>&1 & pids="$$pids $$!"; done; \
	$(PY) -m tests.models_families $(FAMILY_MODELS) >.cache/models-families.log 2>&1 & pids="$$pids $$!"; \
	if $(MAKE) --no-print-directory lint browser gettext; then \
		ZH_TRANSLATE_MODELS_AHEAD=1 nice -n 10 $(PY) -m pytest -q -n auto --durations=15; rc=$$?; \
	else rc=$$?; kill $$pids 2>/dev/null; fi; \
	for pid in $$pids; do wait $$pid || [ $$rc -ne 0 ] || { rc=1; echo "a test model failed to build: see .cache/models-*.log"; }; done; \
	exit $$rc

site: $(SITE_STAMP)
	$(PY) -m tools.demo site

bench: $(TEST_STAMP)
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/site.py

clean:
	rm -rf $(VENV) .cache example_site/site

# The test models and sdists shared by every clone (`make clean` leaves them).
clean-cache:
	cd "$${XDG_CACHE_HOME:-$$HOME/.cache}/mkdocs-zh-translate" 2>/dev/null && rm -rf test-models realsites sdist || true
