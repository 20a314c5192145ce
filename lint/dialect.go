package lint

import (
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/source"
)

// Dialect is one workflow-definition format. Implementations live under dialect/.
type Dialect interface {
	// ID is the dialect id of SPEC §2 ("cortex", "dws-workflow", …).
	ID() string
	// Detect reports whether an unlabelled document is of this dialect (SPEC §2).
	Detect(doc *source.Document) bool
	// Rules are the dialect's own rules, with their documentation.
	Rules() []Rule
	// Graphs builds the definition's graphs for the graph stage (one per workflow;
	// none when the document is too broken to have one).
	Graphs(f *File) []GraphCheck
	// Lint runs the dialect's rules (SPEC §4), the sql stage included.
	Lint(f *File)
}

// Configurable is a dialect that owns top-level sections of .dws.yaml.
type Configurable interface {
	ConfigSections() map[string]SectionParser
}

// GraphCheck is one graph and how the core graph rules judge it.
type GraphCheck struct {
	Graph   *graph.Graph
	Options graph.Options
}
