# Two entry points, both usable on a fresh machine with no internet (package registries only):
#   make site   builds the example site (English in example_site/site, Chinese in .../site/zh)
#   make test   runs the whole test suite
# Both create .venv on first use; the test models are built into .cache/ and reused.

VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: site test install clean bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[export,test,bench]"
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q

site: $(STAMP)
	$(PY) -m mkdocs_zh_translate.demo site

bench: $(STAMP)
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) .cache example_site/site
