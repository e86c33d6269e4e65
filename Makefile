# Two entry points, both usable on a fresh machine with no internet (package registries only):
#   make site   builds the example site (English in example_site/site, Chinese in .../site/zh)
#   make test   runs the whole test suite
# Both create .venv on first use; the test models are built into .cache/ and reused.

VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: site test install clean bench browser

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[export,test,bench,ray]"
	touch $(STAMP)

install: $(STAMP)

# The browser test drives Debian's headless Chromium; install it when missing and we may.
browser:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver \
		|| echo "could not install chromium: the browser test will be skipped"; fi

test: $(STAMP) browser
	$(PY) -m pytest -q

site: $(STAMP)
	$(PY) -m mkdocs_zh_translate.demo site

bench: $(STAMP)
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/site.py

clean:
	rm -rf $(VENV) .cache example_site/site
