package lint_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dwsdev/dws/cache"
	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

const cleanFlow = `{"schemaVersion": "1.0", "name": "clean-flow", "version": "v1.0", "steps": [
  {"id": "read", "type": "sql", "params": {"statement": "SELECT status FROM expense WHERE id = $1", "args": ["{{id}}"]}, "onSuccess": null, "onFailure": null}]}`

func cachedLinter(t *testing.T, dir, cacheDir string) *lint.Linter {
	t.Helper()
	l := configuredLinter(t, dir)
	l.Cache = cache.Open(cacheDir, l.CacheScope("test build"))
	return l
}

// configuredLinter is a linter of dir's .dws.yaml, without a cache.
func configuredLinter(t *testing.T, dir string) *lint.Linter {
	t.Helper()
	cfg, err := lint.LoadConfig(filepath.Join(dir, ".dws.yaml"), dialect.Registry())
	if err != nil {
		t.Fatal(err)
	}
	l, err := lint.New(dialect.Registry(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// expenseTree writes a config naming a DDL of the expense table into a new directory
// and returns it with a new cache directory; the racy window is window until the test
// ends.
func expenseTree(t *testing.T, window time.Duration) (dir, cacheDir string) {
	t.Helper()
	old := cache.RacyWindow
	t.Cleanup(func() { cache.RacyWindow = old })
	cache.RacyWindow = window
	dir, cacheDir = t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, ".dws.yaml"), "version: 1\nsql: { from_ddl: schema.sql }\n")
	write(t, filepath.Join(dir, "schema.sql"), "CREATE TABLE expense (id bigint, status text);\n")
	return dir, cacheDir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A hit is taken as it stands: the file is not checked again. The entry below claims
// a checksum no check could compute, and the run reports it.
func TestCacheHitSkipsTheStages(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, ".dws.yaml"), "version: 1\nsql: { from_ddl: schema.sql }\n")
	write(t, filepath.Join(dir, "schema.sql"), "CREATE TABLE expense (id bigint, status text);\n")
	flow := filepath.Join(dir, "flow.json")
	write(t, flow, cleanFlow)

	l := cachedLinter(t, dir, cacheDir)
	first := l.Run([]lint.Input{{Path: flow}})
	if n := len(first.Diagnostics()); n != 0 || first.Files[0].Checksum == "" {
		t.Fatalf("the clean flow: %d findings, checksum %q", n, first.Files[0].Checksum)
	}
	if err := l.Cache.Close(); err != nil {
		t.Fatal(err)
	}

	l = cachedLinter(t, dir, cacheDir)
	l.Cache.Put(cache.KeyOf([]byte(flow), []byte(cleanFlow)), cache.Entry{Dialect: "cortex", Checksum: "sha256:from-the-cache"})
	if got := l.Run([]lint.Input{{Path: flow}}).Files[0].Checksum; got != "sha256:from-the-cache" {
		t.Fatalf("the second run checked the file again (checksum %s)", got)
	}
}

// Only clean files are remembered; a file with a finding is checked every time.
func TestCacheKeepsOnlyCleanFiles(t *testing.T) {
	dir, cacheDir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, ".dws.yaml"), "version: 1\nsql: { from_ddl: schema.sql }\n")
	write(t, filepath.Join(dir, "schema.sql"), "CREATE TABLE other (id bigint);\n")
	flow := filepath.Join(dir, "flow.json")
	write(t, flow, cleanFlow)
	l := cachedLinter(t, dir, cacheDir)
	if n := len(l.Run([]lint.Input{{Path: flow}}).Diagnostics()); n == 0 {
		t.Fatal("expense is not in the DDL, yet no finding")
	}
	if _, ok := l.Cache.Get(cache.KeyOf([]byte(flow), []byte(cleanFlow))); ok {
		t.Fatal("a file with findings was cached")
	}
}

// The scope covers the build, the forced dialect, the config and each file it names.
func TestCacheScope(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".dws.yaml"), "version: 1\nsql: { from_ddl: schema.sql }\ncortex: { prompt_templates: pt.yaml }\nlock: dws.lock\n")
	write(t, filepath.Join(dir, "schema.sql"), "CREATE TABLE expense (id bigint, status text);\n")
	write(t, filepath.Join(dir, "pt.yaml"), "templates: {}\nschemas: {}\n")
	write(t, filepath.Join(dir, "dws.lock"), "{\"version\": 1, \"files\": {}}\n")
	scope := func() cache.Key { return cachedLinter(t, dir, t.TempDir()).CacheScope("build 1") }
	base := scope()
	if scope() != base {
		t.Fatal("the scope is not stable")
	}
	l := cachedLinter(t, dir, t.TempDir())
	if l.CacheScope("build 2") == base {
		t.Error("another build has the same scope")
	}
	l.Dialect = "cortex"
	if l.CacheScope("build 1") == base {
		t.Error("a forced dialect has the same scope")
	}
	for _, f := range []struct{ name, text string }{
		{"schema.sql", "CREATE TABLE expense (id bigint);\n"},
		{"pt.yaml", "templates: {t: {purpose: x}}\nschemas: {}\n"},
		{"dws.lock", "{\"version\": 1, \"files\": {\"a.json\": \"sha256:0000000000000000000000000000000000000000000000000000000000000000\"}}\n"},
		{".dws.yaml", "version: 1\nsql: { from_ddl: schema.sql }\ncortex: { prompt_templates: pt.yaml }\nlock: dws.lock\nrules: { cycle: warning }\n"},
	} {
		old, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, f.name), f.text)
		if scope() == base {
			t.Errorf("a change to %s keeps the scope", f.name)
		}
		write(t, filepath.Join(dir, f.name), string(old))
	}
}

// A clean file's stamp (its metadata) is kept when the file is older than the racy
// window, and answers for it on later runs; a write that keeps the size and puts the
// modification time back still moves the status-change time, and is checked; a file
// written just before the run gets no stamp.
func TestCacheStamps(t *testing.T) {
	_, stamps := cache.StampOf("cache_test.go") // false where the system gives none
	dir, cacheDir := expenseTree(t, 50*time.Millisecond)
	flow := filepath.Join(dir, "flow.json")
	write(t, flow, cleanFlow)
	time.Sleep(150 * time.Millisecond)

	l := cachedLinter(t, dir, cacheDir)
	if n := len(l.Run([]lint.Input{{Path: flow}}).Diagnostics()); n != 0 {
		t.Fatalf("the clean flow: %d findings", n)
	}
	fresh := filepath.Join(dir, "fresh.json")
	write(t, fresh, cleanFlow)
	if n := len(l.Run([]lint.Input{{Path: fresh}}).Diagnostics()); n != 0 {
		t.Fatalf("the fresh flow: %d findings", n)
	}
	if err := l.Cache.Close(); err != nil {
		t.Fatal(err)
	}
	c := cachedLinter(t, dir, cacheDir).Cache
	st, _ := cache.StampOf(flow)
	if _, ok := c.Stamped(flow, st); ok != stamps {
		t.Fatalf("a stamp kept for the clean flow: %v; stamps on this system: %v", ok, stamps)
	}
	if st, _ := cache.StampOf(fresh); func() bool { _, ok := c.Stamped(fresh, st); return ok }() {
		t.Fatal("a stamp was kept for a file written within the racy window")
	}

	// Rewritten as it was (a checkout, a touch): the bytes hit, and the new stamp is
	// kept, so the next run need not read the file.
	write(t, flow, cleanFlow)
	time.Sleep(150 * time.Millisecond)
	l = cachedLinter(t, dir, cacheDir)
	if n := len(l.Run([]lint.Input{{Path: flow}}).Diagnostics()); n != 0 {
		t.Fatalf("the rewritten flow: %d findings", n)
	}
	if err := l.Cache.Close(); err != nil {
		t.Fatal(err)
	}
	st, _ = cache.StampOf(flow)
	if _, ok := cachedLinter(t, dir, cacheDir).Cache.Stamped(flow, st); ok != stamps {
		t.Fatalf("the rewritten flow's new stamp kept: %v; stamps on this system: %v", ok, stamps)
	}

	// The same size, another column, the old modification time.
	info, err := os.Stat(flow)
	if err != nil {
		t.Fatal(err)
	}
	write(t, flow, strings.Replace(cleanFlow, "SELECT status", "SELECT statux", 1))
	if err := os.Chtimes(flow, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	l = cachedLinter(t, dir, cacheDir)
	if got := l.Run([]lint.Input{{Path: flow}}).Diagnostics(); len(got) != 1 || got[0].Rule != "sql-column" {
		t.Fatalf("after a same-size write with the old mtime: %v", got)
	}
}

// A cached verdict never stands in for the lockfile's check: an entry (and a stamp)
// saying a file with a dangling edge is clean, with the checksum the lockfile
// records, still leaves the file failing, with today's checksum. An entry that agrees
// with today's bytes and the lockfile is taken as it stands.
func TestCacheNeverStandsInForTheLock(t *testing.T) {
	defer func(w time.Duration) { cache.RacyWindow = w }(cache.RacyWindow)
	cache.RacyWindow = 0 // the stamps below are kept however recent the file
	dir, cacheDir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, ".dws.yaml"), "version: 1\nsql: { from_ddl: schema.sql }\nlock: dws.lock\n")
	write(t, filepath.Join(dir, "schema.sql"), "CREATE TABLE expense (id bigint, status text);\n")
	flow := filepath.Join(dir, "flow.json")
	write(t, flow, cleanFlow)
	write(t, filepath.Join(dir, "dws.lock"), "{\"version\": 1, \"files\": {}}\n")
	l := cachedLinter(t, dir, cacheDir)
	recorded := l.Run([]lint.Input{{Path: flow}}).Files[0].Checksum
	lock := fmt.Sprintf("{\"version\": 1, \"files\": {\"flow.json\": %q}}\n", recorded)
	write(t, filepath.Join(dir, "dws.lock"), lock)

	dangling := strings.Replace(cleanFlow, `"onSuccess": null`, `"onSuccess": "nowhere"`, 1)
	write(t, flow, dangling)
	l = cachedLinter(t, dir, cacheDir)
	k := cache.KeyOf([]byte(flow), []byte(dangling))
	l.Cache.Put(k, cache.Entry{Dialect: "cortex", Checksum: recorded})
	if st, ok := cache.StampOf(flow); ok {
		l.Cache.PutStamp(flow, st, k)
	}
	res := l.Run([]lint.Input{{Path: flow}})
	rules := map[string]bool{}
	for _, d := range res.Diagnostics() {
		rules[d.Rule] = true
	}
	if !rules["checksum-mismatch"] || !rules["dangling-edge"] {
		t.Errorf("a forged clean entry: findings %v, want checksum-mismatch and dangling-edge", rules)
	}
	if got := res.Files[0].Checksum; got == recorded {
		t.Errorf("the checksum reported is the cache's, %s", got)
	}

	// The same lie about bytes whose checksum is the recorded one: nothing to
	// compare differs, and the entry is taken (a column the DDL lacks goes unseen).
	unknown := strings.Replace(cleanFlow, "SELECT status", "SELECT statux", 1)
	write(t, flow, unknown)
	l = cachedLinter(t, dir, cacheDir)
	sum := l.Run([]lint.Input{{Path: flow}}).Files[0].Checksum
	write(t, filepath.Join(dir, "dws.lock"), fmt.Sprintf("{\"version\": 1, \"files\": {\"flow.json\": %q}}\n", sum))
	l = cachedLinter(t, dir, cacheDir)
	l.Cache.Put(cache.KeyOf([]byte(flow), []byte(unknown)), cache.Entry{Dialect: "cortex", Checksum: sum})
	if got := l.Run([]lint.Input{{Path: flow}}); len(got.Diagnostics()) != 0 {
		t.Errorf("an entry agreeing with the bytes and the lockfile was not taken: %v", got.Diagnostics())
	}
}

// A walk reads a directory's listing from the cache only while the directory is as it
// was: a file added, removed or renamed since, in the directory or one below it, is
// walked as it is now, even when the directory's modification time is put back.
func TestCacheListingsSeeChanges(t *testing.T) {
	if _, ok := cache.DirStampOf("."); !ok {
		t.Skip("no stamps on this system: every directory is read")
	}
	dir, cacheDir := expenseTree(t, 50*time.Millisecond)
	flows := filepath.Join(dir, "flows")
	if err := os.MkdirAll(filepath.Join(flows, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.json", "b.json", "sub/c.json"} {
		write(t, filepath.Join(flows, name), cleanFlow)
	}
	walked := func() []string {
		t.Helper()
		time.Sleep(100 * time.Millisecond) // past the racy window: the listings are kept
		l := cachedLinter(t, dir, cacheDir)
		inputs, _, err := l.Expand([]string{flows})
		if err != nil {
			t.Fatal(err)
		}
		res := l.Run(inputs)
		if err := l.Cache.Close(); err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, f := range res.Files {
			if len(f.Diagnostics) > 0 {
				t.Fatalf("%s: %v", f.Path, f.Diagnostics)
			}
			paths = append(paths, f.Path[strings.LastIndex(f.Path, "flows/"):])
		}
		return paths
	}
	check := func(how string, want ...string) {
		t.Helper()
		if got := walked(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: walked %v, want %v", how, got, want)
		}
	}
	check("first", "flows/a.json", "flows/b.json", "flows/sub/c.json")
	abs, _ := filepath.Abs(flows)
	st, _ := cache.DirStampOf(flows)
	if _, ok := cachedLinter(t, dir, cacheDir).Cache.Listing(abs, st); !ok {
		t.Fatal("the walk kept no listing of flows")
	}
	check("from the listings", "flows/a.json", "flows/b.json", "flows/sub/c.json")

	write(t, filepath.Join(flows, "d.json"), cleanFlow)
	check("a file added", "flows/a.json", "flows/b.json", "flows/d.json", "flows/sub/c.json")
	if err := os.Remove(filepath.Join(flows, "b.json")); err != nil {
		t.Fatal(err)
	}
	check("a file removed", "flows/a.json", "flows/d.json", "flows/sub/c.json")
	if err := os.Rename(filepath.Join(flows, "a.json"), filepath.Join(flows, "e.json")); err != nil {
		t.Fatal(err)
	}
	check("a file renamed", "flows/d.json", "flows/e.json", "flows/sub/c.json")
	write(t, filepath.Join(flows, "sub", "f.json"), cleanFlow)
	check("a file added below", "flows/d.json", "flows/e.json", "flows/sub/c.json", "flows/sub/f.json")

	info, err := os.Stat(flows)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(flows, "g.json"), cleanFlow)
	if err := os.Chtimes(flows, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	check("a file added, the time put back", "flows/d.json", "flows/e.json", "flows/g.json", "flows/sub/c.json", "flows/sub/f.json")
	if err := os.Remove(filepath.Join(flows, "sub", "c.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(flows, "sub", "f.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(flows, "sub")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(flows, "sub"), cleanFlow) // a directory become a file
	check("a directory become a file", "flows/d.json", "flows/e.json", "flows/g.json")
}

// A walk with the cache's listings and stamps finds what a walk without any cache
// finds, whatever happens to the tree between runs: files and directories added,
// removed, renamed and rewritten (in place, at the same size, with the times put
// back), checked against a fresh walk of the same tree after every step.
func TestCachedWalkMatchesUncached(t *testing.T) {
	if _, ok := cache.DirStampOf("."); !ok {
		t.Skip("no stamps on this system: every directory is read")
	}
	for seed := range 3 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { cachedWalkMatches(t, int64(seed)) })
	}
}

func cachedWalkMatches(t *testing.T, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	dir, cacheDir := expenseTree(t, 20*time.Millisecond)
	root := filepath.Join(dir, "flows")
	dirs := []string{root}
	var files []string
	flow := func() string {
		// Clean, or (same size) naming a column the DDL lacks.
		if rng.Intn(3) == 0 {
			return strings.Replace(cleanFlow, "SELECT status", "SELECT statux", 1)
		}
		return strings.Replace(cleanFlow, "clean-flow", fmt.Sprintf("flow-%04d", rng.Intn(10000)), 1)
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		p := filepath.Join(root, fmt.Sprintf("f%d.json", i))
		write(t, p, flow())
		files = append(files, p)
	}
	pick := func(list []string) int { return rng.Intn(len(list)) }
	step := func() string {
		switch op := rng.Intn(8); {
		case op == 0 || len(files) == 0:
			p := filepath.Join(dirs[pick(dirs)], fmt.Sprintf("n%d.json", rng.Intn(1000)))
			write(t, p, flow())
			files = append(files, p)
			return "add " + p
		case op == 1:
			i := pick(files)
			os.Remove(files[i])
			files = slices.Delete(files, i, i+1)
			return "remove"
		case op == 2:
			i := pick(files)
			to := filepath.Join(dirs[pick(dirs)], fmt.Sprintf("r%d.json", rng.Intn(1000)))
			if os.Rename(files[i], to) == nil {
				files[i] = to
			}
			return "rename to " + to
		case op == 3:
			d := filepath.Join(dirs[pick(dirs)], fmt.Sprintf("d%d", rng.Intn(100)))
			if os.Mkdir(d, 0o700) == nil {
				dirs = append(dirs, d)
			}
			return "mkdir " + d
		case op == 4 && len(dirs) > 1:
			i := 1 + rng.Intn(len(dirs)-1)
			gone := dirs[i]
			if err := os.RemoveAll(gone); err != nil {
				t.Fatal(err)
			}
			dirs = slices.DeleteFunc(dirs, func(d string) bool { return d == gone || strings.HasPrefix(d, gone+"/") })
			files = slices.DeleteFunc(files, func(f string) bool { return strings.HasPrefix(f, gone+"/") })
			return "rmdir " + gone
		case op == 5:
			// In place, the same size, the file's and its directory's times put back.
			p := files[pick(files)]
			fi, err1 := os.Stat(p)
			di, err2 := os.Stat(filepath.Dir(p))
			if err1 != nil || err2 != nil {
				return "none"
			}
			write(t, p, flow())
			os.Chtimes(p, fi.ModTime(), fi.ModTime())
			os.Chtimes(filepath.Dir(p), di.ModTime(), di.ModTime())
			return "rewrite " + p
		case op == 6:
			// A file added and its directory's modification time put back.
			d := dirs[pick(dirs)]
			di, err := os.Stat(d)
			if err != nil {
				return "none"
			}
			p := filepath.Join(d, fmt.Sprintf("h%d.json", rng.Intn(1000)))
			write(t, p, flow())
			files = append(files, p)
			os.Chtimes(d, di.ModTime(), di.ModTime())
			return "add with the time put back " + p
		}
		return "none"
	}
	describe := func(res *lint.Result) string {
		var b strings.Builder
		for _, f := range res.Files {
			fmt.Fprintf(&b, "%s %s %s %d\n", f.Path, f.Dialect, f.Checksum, len(f.Diagnostics))
		}
		return b.String()
	}
	walk := func(cached bool) string {
		t.Helper()
		l := configuredLinter(t, dir)
		if cached {
			l.Cache = cache.Open(cacheDir, l.CacheScope("test build"))
			defer func() {
				if err := l.Cache.Close(); err != nil {
					t.Fatal(err)
				}
			}()
		}
		inputs, problems, err := l.Expand([]string{root})
		if err != nil {
			return "error: " + err.Error()
		}
		return describe(l.Run(inputs, problems...))
	}
	for i := range 40 {
		op := step()
		time.Sleep(25 * time.Millisecond) // past the racy window: this walk keeps its listings
		want, got := walk(false), walk(true)
		if got != want {
			t.Fatalf("step %d (%s): the cached walk found\n%s\nthe uncached one\n%s", i, op, got, want)
		}
	}
}

// A listing is kept under the stamp of the directory it was read from. A directory
// put in the place of another between the walk's stat and its read (a mount over
// the path; here a rename, which a test may make) lends its names to nothing: had
// they been kept under the stamp the stat gave, a later run that meets that stamp
// again (the mount gone) would walk names the directory never held, and miss its
// own files with their findings.
func TestCacheListingIsOfTheDirectoryRead(t *testing.T) {
	if _, ok := cache.DirStampOf("."); !ok {
		t.Skip("no stamps on this system: every directory is read")
	}
	defer lint.SetBeforeRead(nil)
	dir, cacheDir := expenseTree(t, 50*time.Millisecond)
	sub, other := filepath.Join(dir, "flows", "sub"), filepath.Join(dir, "other")
	for _, d := range []string{sub, other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(sub, "own.json"), strings.Replace(cleanFlow, "SELECT status", "SELECT statux", 1))
	write(t, filepath.Join(other, "lent.json"), cleanFlow)
	time.Sleep(100 * time.Millisecond) // past the racy window: the listings are kept
	before, ok := cache.DirStampOf(sub)
	if !ok {
		t.Fatal("no stamp of flows/sub")
	}
	lint.SetBeforeRead(func(d string) {
		if filepath.Base(d) != "sub" {
			return
		}
		lint.SetBeforeRead(nil)
		if err := os.Rename(sub, filepath.Join(dir, "sub.old")); err != nil {
			t.Error(err)
		}
		if err := os.Rename(other, sub); err != nil {
			t.Error(err)
		}
	})
	l := cachedLinter(t, dir, cacheDir)
	inputs, problems, err := l.Expand([]string{filepath.Join(dir, "flows")})
	if err != nil {
		t.Fatal(err)
	}
	l.Run(inputs, problems...)
	if err := l.Cache.Close(); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(sub)
	if ents, ok := cachedLinter(t, dir, cacheDir).Cache.Listing(abs, before); ok {
		t.Fatalf("flows/sub's stamp before the swap keeps the listing %v: another directory's", ents)
	}
}

// A file's stamp is kept with the verdict of the bytes read only when they are the
// file the stamp was taken of: one renamed (or mounted) over the path between the
// stat and the read must not lend its verdict to the stamp of the file it replaced,
// which a later unmount or rename could bring back.
func TestCacheStampIsOfTheFileRead(t *testing.T) {
	if _, ok := cache.StampOf("cache_test.go"); !ok {
		t.Skip("no stamps on this system: every file is read")
	}
	defer lint.SetBeforeRead(nil)
	dir, cacheDir := expenseTree(t, 50*time.Millisecond)
	flow, lent := filepath.Join(dir, "flow.json"), filepath.Join(dir, "lent.json.txt")
	write(t, flow, strings.Replace(cleanFlow, "SELECT status", "SELECT statux", 1))
	write(t, lent, cleanFlow)
	time.Sleep(100 * time.Millisecond) // past the racy window: stamps are kept
	before, _ := cache.StampOf(flow)
	lint.SetBeforeRead(func(p string) {
		if filepath.Base(p) != "flow.json" {
			return
		}
		lint.SetBeforeRead(nil)
		if err := os.Rename(flow, flow+".old"); err != nil {
			t.Error(err)
		}
		if err := os.Rename(lent, flow); err != nil {
			t.Error(err)
		}
	})
	l := cachedLinter(t, dir, cacheDir)
	if n := len(l.Run([]lint.Input{{Path: flow}}).Diagnostics()); n != 0 {
		t.Fatalf("the file read, clean, has %d findings", n)
	}
	if err := l.Cache.Close(); err != nil {
		t.Fatal(err)
	}
	if e, ok := cachedLinter(t, dir, cacheDir).Cache.Stamped(flow, before); ok {
		t.Fatalf("the stamp of the file with a finding, taken before the swap, answers %v: the verdict of the file read", e)
	}
}
