# Every target works on a fresh clone: the virtualenv is built when missing.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: install demo test bench lint golden clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	MPLBACKEND=Agg $(PY) tools/demo.py

test: $(STAMP)
	MPLBACKEND=Agg $(PY) -m pytest

bench: $(STAMP)
	MPLBACKEND=Agg $(PY) bench/run.py

golden: $(STAMP)
	MPLBACKEND=Agg $(PY) tools/golden.py

lint: $(STAMP)
	$(PY) -m pip install --quiet ruff
	$(VENV)/bin/ruff check gm tests tools bench
	$(VENV)/bin/lint-imports --no-cache

clean:
	rm -rf out .pytest_cache
