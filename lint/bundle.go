package lint

import (
	"fmt"
	"slices"
)

// bundleHome is the bundle a directory lies in; b is nil when it lies in none.
type bundleHome struct {
	b    *Bundle
	root string
}

// homeOf returns the bundle a directory is or lies in. Finding a root looks at every
// parent directory, so the answer is kept per directory for the run: 10,000 files in
// one folder ask once.
func (r *run) homeOf(dir string) bundleHome {
	dir = absOrSelf(dir)
	r.mu.Lock()
	h, ok := r.homes[dir]
	r.mu.Unlock()
	if ok {
		return h
	}
	for _, d := range r.Registry.Dialects() {
		if d.Bundle == nil {
			continue
		}
		if root, found := d.Bundle.Root(dir); found {
			h = bundleHome{d.Bundle, root}
			break
		}
	}
	r.mu.Lock()
	r.homes[dir] = h
	r.mu.Unlock()
	return h
}

type bundleListing struct {
	check, context []string
	err            error
}

// files lists a bundle's files once per run: every input inside a job spec asks, and
// walking the job spec for each of them would make a run quadratic in its size.
func (r *run) files(h bundleHome) (check, context []string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	lst, ok := r.listings[h.root]
	if !ok {
		lst.check, lst.context, lst.err = h.b.Files(h.root)
		r.listings[h.root] = lst
	}
	return lst.check, lst.context, lst.err
}

// isContext reports whether path is a context file of the bundle it lies in: such files
// are read for the cross-file rules but are not definitions of any dialect.
func (r *run) isContext(h bundleHome, path string) bool {
	_, ctx, err := r.files(h)
	if err != nil {
		return false
	}
	abs := absOrSelf(path)
	return slices.ContainsFunc(ctx, func(c string) bool { return absOrSelf(c) == abs })
}

// crossFile is stage 8: for every bundle an input lies in, it loads the bundle's other
// files (checked like any file, but their own findings are not part of this run) and
// runs the bundle's cross-file rules. Findings land on the inputs they are about.
func (r *run) crossFile(inputs []Input, homes []bundleHome, files []*File, results []FileResult) {
	type unit struct {
		home  bundleHome
		given map[string]int // absolute path -> index into inputs
	}
	var units []*unit
	byRoot := map[string]*unit{}
	for i, h := range homes {
		if h.b == nil {
			continue
		}
		u := byRoot[h.root]
		if u == nil {
			u = &unit{home: h, given: map[string]int{}}
			byRoot[h.root] = u
			units = append(units, u)
		}
		u.given[absOrSelf(inputs[i].Path)] = i
	}
	for _, u := range units {
		check, ctx, err := r.files(u.home)
		if err != nil {
			for _, i := range u.given {
				files[i].ReportAt("read", "", fileStart, fmt.Sprintf("cannot read the job spec at %s: %v", u.home.root, err))
				results[i].Diagnostics = files[i].diags
			}
			continue
		}
		var members []*File
		seen := map[string]bool{}
		for _, p := range append(slices.Clone(check), ctx...) {
			abs := absOrSelf(p)
			if seen[abs] {
				continue
			}
			seen[abs] = true
			if i, ok := u.given[abs]; ok {
				members = append(members, files[i])
				continue
			}
			isCtx := slices.Contains(ctx, p)
			f, _ := r.file(Input{Path: display(relCwd(p)), Context: isCtx}, true)
			if f.Doc != nil && f.Doc.Root != nil {
				members = append(members, f)
			}
		}
		before := map[int]int{}
		for _, i := range u.given {
			before[i] = len(files[i].diags)
		}
		func() {
			defer func() {
				if v := recover(); v != nil {
					panic(&PanicError{File: display(relCwd(u.home.root)), Value: v})
				}
			}()
			u.home.b.Check(u.home.root, members)
		}()
		for _, i := range u.given {
			if len(files[i].diags) != before[i] {
				results[i].Diagnostics = files[i].diags
				// A file that was clean until now had its document dropped (see
				// run.file); the report needs it for the source lines.
				results[i].Doc = reportDoc(files[i], results[i].inline)
			}
		}
	}
}
