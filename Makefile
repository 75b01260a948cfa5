# Reconcile Lab's build. `make help` lists the targets; README.md explains them.
# Everything here is a thin wrapper around the go command, so each recipe line
# can also be run by hand.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules

GO ?= go
FUZZTIME ?= 10s
# ADDR is where make run serves the page (rlab serve --addr): host:port.
ADDR ?= 127.0.0.1:8080

# VERSION is what the page reports as rlab.version.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

# wasm_exec.js, and go_js_wasm_exec which runs js/wasm test binaries under
# node, live here since Go 1.24. wasm_exec.js must come from the toolchain that
# built main.wasm, so it is copied at build time, never committed.
WASM_EXEC_DIR := $(shell $(GO) env GOROOT)/lib/wasm
GOFMT := $(shell $(GO) env GOROOT)/bin/gofmt

# staticcheck 2026.2.2 is version v0.8.2 of the module honnef.co/go/tools; the
# module proxy resolves only the latter. lint uses the staticcheck on PATH or
# in go install's directory, and installs this version there if there is none.
STATICCHECK_VERSION := v0.8.2
GOBIN_DIR := $(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin)
STATICCHECK := $(or $(shell command -v staticcheck 2>/dev/null),$(GOBIN_DIR)/staticcheck)

# JS_PACKAGES are the packages that run as WebAssembly: main.wasm's (wasm/,
# core/, lessons/) and export.wasm's (exportwasm/), whose tests make test
# also runs under node. The js/wasm half of lint covers them; cmd/, e2e/ and internal/ never run there, and
# vetting them for js/wasm compiled net/http, chromedp and their kin for
# nothing. For the same reason the test files that use the upstream modules
# as oracles are //go:build !js: they run, and are linted, natively.
JS_PACKAGES := ./wasm/... ./exportwasm/... ./core/... ./lessons/...

.PHONY: help wasm run lint test parity jstest typecheck bench fuzz clean

help: ## list the targets
	@awk 'BEGIN { FS = ":.*## " } /^[a-z]+:.*## / { printf "  make %-6s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

wasm: ## build site/main.wasm and site/export.wasm, copy the matching wasm_exec.js beside it, precompress the page, and print main.wasm's sizes against its budget
	$(GO) run ./cmd/rlab wasm --go=$(GO) --out=site/main.wasm --version=$(VERSION)
	install -m 0644 "$(WASM_EXEC_DIR)/wasm_exec.js" site/wasm_exec.js
	$(GO) run ./cmd/rlab bundle --dir=site
	$(GO) run ./cmd/rlab compress --dir=site
	@$(GO) run ./cmd/benchreport -wasm site/main.wasm

run: wasm ## build the page and serve it on ADDR, http://127.0.0.1:8080 unless told (Ctrl-C stops)
	$(GO) run ./cmd/rlab serve --addr=$(ADDR)

lint: $(STATICCHECK) ## gofmt, go vet and staticcheck, natively, and for js/wasm on the packages that run there
	@unformatted="$$($(GOFMT) -l .)"; \
	if [[ -n "$$unformatted" ]]; then \
		printf 'gofmt: these files are not formatted (run gofmt -w on them):\n%s\n' "$$unformatted"; \
		exit 1; \
	fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet $(JS_PACKAGES)
	$(STATICCHECK) ./...
	GOOS=js GOARCH=wasm $(STATICCHECK) $(JS_PACKAGES)

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# core/ is single-threaded by rule, so the race detector runs on everything
# else but e2e/, whose goroutines are chromedp's and whose browser runs once,
# in the first line, and lessons/, whose proofs run core's lesson checks and
# start no goroutine (they run natively and under node). The js/wasm run proves the page's code also works where
# it ships; core is pure Go and must pass there too (but for its oracle
# tests, which are native only; see JS_PACKAGES).
# The browser tests' JavaScript dependency, axe-core, pinned in
# e2e/package-lock.json: npm ci installs it when it is missing or older than
# the lock file. Without npm the accessibility test skips (fails with CI=true).
E2E_MODULES := e2e/node_modules/.package-lock.json
$(E2E_MODULES): e2e/package.json e2e/package-lock.json
	@if command -v npm >/dev/null; then npm ci --prefix e2e --no-audit --no-fund; \
	else echo "make: npm is missing, so the axe-core test will not run; install it (Debian: apt-get install npm)"; fi

# The browser suite takes 6 to 10 minutes on a 2-core machine, alone; beside
# other work it has taken more than go test's default 10-minute limit per
# package, so the native run allows 30.
test: lint typecheck jstest $(E2E_MODULES) ## lint, the page's JavaScript types and unit tests, then every Go test: native (the browser suite included), with -race outside core/, and js/wasm under node
	$(GO) test -timeout 30m ./...
	CGO_ENABLED=1 $(GO) test -race $$($(GO) list ./... | grep -Ev '/core(/|$$)|/e2e$$|/lessons$$')
	PATH="$(WASM_EXEC_DIR):$$PATH" GOOS=js GOARCH=wasm $(GO) test $(JS_PACKAGES)

# make parity runs every lesson and every golden script on rlab and on a
# real control plane (etcd, kube-apiserver and the real controllers of
# Kubernetes v1.31.14, in one process: parity/README.md), and fails on a
# difference the table of known divergences does not explain, or on a row
# of that table that no script needs any more (-check-table). errors.txt is
# the one golden script left out: it is a script of parse errors, with
# nothing to run. parity/ is a module of its own, so the main module never
# takes on k8s.io/kubernetes; its first build takes minutes and a few GB of
# build cache, later ones reuse the cache. Each script runs in a process of
# its own, PARITY_JOBS at a time: a plane mostly waits on real time
# (kubelet delays, grace periods, advance), so four overlap well on two
# cores. parity's own tests (the planted difference among them) run last,
# after go vet of the module, which make lint leaves out so that make test
# need not build k8s.io/kubernetes.
PARITY_JOBS ?= 4
PARITY_SCRIPTS := $(wildcard lessons/*.txtar) $(filter-out core/script/testdata/errors.txt,$(wildcard core/script/testdata/*.txt))
parity: ## every lesson and golden script on rlab and on a real control plane, compared; then parity's own tests
	cd parity && $(GO) build -o ../tmp/parity/parity ./cmd/parity
	cd parity && ../tmp/parity/parity -j $(PARITY_JOBS) -check-table $(addprefix ../,$(PARITY_SCRIPTS))
	cd parity && $(GO) vet ./...
	cd parity && $(GO) test -count=1 ./...

# The page's pure JavaScript (share links, the timeline's list, Markdown,
# offsets, progress files), under node's own test runner: jstest/*.test.mjs
# import site/'s modules as they are, with a fake document (fakedom.mjs).
jstest: ## the page's JavaScript unit tests, under node --test
	node --test jstest/*.test.mjs

# TypeScript, pinned in package-lock.json, checks site/'s JavaScript against
# its JSDoc types: the page's modules with the DOM's types (jsconfig.json),
# and its two workers, worker.js and sw.js, classic scripts that run without
# a document, with a worker's (jsconfig.workers.json, and
# types/worker-globals.d.ts for what wasm_exec.js and main.wasm give
# worker.js). Only two generated files are left out: wasm_exec.js (the Go
# toolchain's) and rlab-start.js and rlab.js (rlab bundle's, the modules
# joined).
# npm ci installs TypeScript when it is missing or older than the lock file.
SITE_MODULES := node_modules/.package-lock.json
$(SITE_MODULES): package.json package-lock.json
	npm ci --no-audit --no-fund

typecheck: $(SITE_MODULES) ## tsc --noEmit --checkJs --strict over site/'s JavaScript, against its JSDoc types
	node_modules/.bin/tsc -p jsconfig.json
	node_modules/.bin/tsc -p jsconfig.workers.json

# One package at a time (-p 1): go test runs packages side by side, and a
# package's benchmarks timed while another's run on the machine's other core
# measure the two together (BenchmarkBrowserPlay's frames drew 12.6 ms at p95
# beside the engine's benchmarks, 10.6-10.9 ms alone).
bench: ## run every benchmark once and judge them against the budgets (raw output: bench.out)
	$(GO) test -p 1 -run '^$$' -bench . -benchmem -count 1 ./... | tee bench.out | $(GO) run ./cmd/benchreport

fuzz: ## run every fuzz target for FUZZTIME (default 10s) each, then the 200-seed chaos run
	@found=0; \
	for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list '^Fuzz' "$$pkg" | grep '^Fuzz' || true); do \
			found=1; \
			echo "fuzz: $$pkg $$target for $(FUZZTIME)"; \
			$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) "$$pkg"; \
		done; \
	done; \
	if (( ! found )); then echo "fuzz: no fuzz targets"; fi
	@echo "fuzz: chaos: 200 seeds of random faults, then heal and converge"
	$(GO) test ./core/world -run 'TestChaos$$' -chaos.seeds=200 -count=1

clean: ## remove build and test outputs
	rm -rf site/main.wasm site/export.wasm site/lessons.json site/wasm_exec.js site/rlab-start.js site/rlab.js site/*.gz site/*.br bench.out tmp
