package lint

import (
	"fmt"

	"github.com/dwsdev/dws/change"
)

// published is the publishing part of stage 9 (SPEC §17), when the lockfile has a
// published section: a unit whose version is published must have the content published
// under it (version-mutated), and a version not published yet is said
// (version-unpublished). A lockfile without published entries asks for neither: the
// team does not publish through it.
func (l *Linter) published(f *File) {
	if l.Lock == nil || len(l.Lock.Published) == 0 || f.Dialect == nil || f.Dialect.Units == nil || f.Doc == nil {
		return
	}
	for _, u := range f.Dialect.Units(&Pass{File: f, Model: f.Model}) {
		if !change.Publishable(u) {
			continue
		}
		pub, ok := l.Lock.Published[u.Ref()]
		if !ok {
			f.ReportAt("version-unpublished", u.Pointer, u.VersionSpan, fmt.Sprintf(
				"%s is not published in %s yet (publish it with dws checksum --write %s --publish)", u.Ref(), relCwd(l.Config.Lock), relCwd(l.Config.Lock)))
			continue
		}
		e, err := change.Entry(f.Doc, u, "")
		if err != nil {
			continue // the file's checksum stage reports what has no canonical form
		}
		if !e.Equal(pub) {
			f.ReportAt("version-mutated", u.Pointer, u.VersionSpan, fmt.Sprintf(
				"%s was published with other content (%s, from %s); a published version never changes: bump the version",
				u.Ref(), short(pub.Checksum), pub.Path))
		}
	}
}
