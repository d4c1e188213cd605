# Sourced by the cost benchmarks: bench_spec SECONDS prints the spec both
# generate their fixtures from (on_import = "exclude", late_imports =
# "warn", nothing preloaded), with the deadline's seconds as given.
bench_spec() {
  cat <<TOML
version = 1

[deadline]
fixture = "deadline"
seconds = $1
on_import = "exclude"
late_imports = "warn"

[preload]
fixture = "preload"
modules = []

[group]
name = "bench"

[paths]
conftest = "tests/conftest.py"
TOML
}
