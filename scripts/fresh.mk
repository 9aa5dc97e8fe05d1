# SPDX-License-Identifier: Apache-2.0
# scripts/fresh.mk - the fresh-machine test: the README's two set-up commands, `make demo`
# then `make test`, run as root in a minimal Debian 12 root built by mmdebstrap (minbase +
# make) from the host's Debian mirror, on a clean clone of the committed HEAD, so that
# scripts/deps.sh must install every package itself. All logic is in scripts/test-fresh.sh
# (its header lists the TIPROF_FRESH_* variables: suite, mirror, keep the root). Needs root;
# takes about as long as `make test` plus the package installs. Not part of TEST_TARGETS.
# Logs, the package list deps.sh pulled in, and the cached pristine root: build/fresh/.
## test-fresh: as root, run `make demo` and `make test` on a fresh Debian 12 root (mmdebstrap) from a clean clone of HEAD

.PHONY: test-fresh
test-fresh:
	@bash scripts/test-fresh.sh
