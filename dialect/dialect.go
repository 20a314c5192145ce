// Package dialect is the one list of the dialects a dws binary knows. Each dialect lives
// in its own package below this one, as a lint.Dialect value; the core packages never
// import them (depguard in .golangci.yml), and only cmd/dws reads this list. A new
// dialect is its package, its line in All, and its schema in package schema.
package dialect

import (
	"github.com/dwsdev/dws/dialect/cortex"
	"github.com/dwsdev/dws/dialect/direclaw"
	"github.com/dwsdev/dws/dialect/dws"
	"github.com/dwsdev/dws/dialect/ensemble"
	"github.com/dwsdev/dws/lint"
)

// All returns every dialect, in detection order.
func All() []*lint.Dialect {
	return append([]*lint.Dialect{cortex.Dialect(), direclaw.Dialect(), ensemble.Dialect()}, dws.Dialects()...)
}

// Registry is the registry of every dialect and rule.
func Registry() *lint.Registry { return lint.NewRegistry(All()...) }
