# Sourced by the cost benchmarks of cold imports: cold_package DIR writes
# the package coldpkg (coldpkg.m000 ... coldpkg.m199, each a class,
# functions and constants) into DIR, for a first import to time.
cold_package() {
  mkdir -p "$1/coldpkg"
  printf '"""200 modules to import cold."""\n' >"$1/coldpkg/__init__.py"
  for i in $(seq -w 0 199); do
    cat >"$1/coldpkg/m$i.py" <<PY
"""Module $i of the benchmark package."""

import os

NAME = "m$i"
TABLE = {str(n): n * $((10#$i + 1)) for n in range(20)}


class Thing$i:
    """A class with a few methods."""

    def __init__(self, value=0):
        self.value = value

    def double(self):
        return self.value * 2

    def path(self):
        return os.path.join(NAME, str(self.value))


def make(value):
    return Thing$i(value)


def total():
    return sum(TABLE.values())
PY
  done
}
