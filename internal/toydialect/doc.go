// Package toydialect holds a test, and nothing else: a sixth dialect, made up and
// registered nowhere, that gets completion, rename, hover, a labelled drawing and
// simulation from the real language server, drawings and simulator through the parts
// of lint.Dialect alone. It proves the seam: no core package names a dialect.
package toydialect
