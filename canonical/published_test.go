package canonical

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func entry(tag string) Published {
	return Published{Checksum: sumOf(tag), Nodes: map[string]string{"a": sumOf(tag + "/a")}, Path: "flows/" + tag + ".json"}
}

// The published section round-trips, sorted and byte-stable; a lockfile without it
// keeps the bytes it always had.
func TestPublishedRoundTrip(t *testing.T) {
	l := &Lock{Files: map[string]string{"x.json": sumOf("x")}}
	plain, err := EncodeLock(l)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "published") {
		t.Fatalf("an empty published section is written:\n%s", plain)
	}
	l.Published = map[string]Published{"cortex:b@v1.0": entry("b"), "cortex:a@v1.0": entry("a")}
	data, err := EncodeLock(l)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Index(string(data), `"cortex:a@v1.0"`) > strings.Index(string(data), `"cortex:b@v1.0"`) {
		t.Fatalf("not sorted:\n%s", data)
	}
	back, err := ParseLock(data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := EncodeLock(back)
	if err != nil || string(again) != string(data) {
		t.Fatalf("not byte-stable: %v\n%s\n%s", err, data, again)
	}
	for _, bad := range []string{
		`{"version": 1, "files": {}, "published": []}`,
		`{"version": 1, "files": {}, "published": {"nounit": {"checksum": "` + sumOf("x") + `", "nodes": {}, "path": "x"}}}`,
		`{"version": 1, "files": {}, "published": {"cortex:x@v1.0": {"checksum": "sha256:1", "nodes": {}, "path": "x"}}}`,
		`{"version": 1, "files": {}, "published": {"cortex:x@v1.0": {"checksum": "` + sumOf("x") + `", "nodes": {"a": 1}, "path": "x"}}}`,
		`{"version": 1, "files": {}, "published": {"cortex:x@v1.0": {"checksum": "` + sumOf("x") + `", "when": "now"}}}`,
		// A path or a checksum that is no string was read as "", and the next write
		// rewrote the entry with "path": "": an append-only entry changed.
		`{"version": 1, "files": {}, "published": {"cortex:x@v1.0": {"checksum": "` + sumOf("x") + `", "nodes": {}, "path": 7}}}`,
		`{"version": 1, "files": {}, "published": {"cortex:x@v1.0": {"checksum": "` + sumOf("x") + `", "nodes": {}, "path": null}}}`,
		`{"version": 1, "files": {}, "published": {"cortex:x@v1.0": {"checksum": ["` + sumOf("x") + `"], "nodes": {}, "path": "x"}}}`,
	} {
		if _, err := ParseLock([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

// Publishing appends: a new version is added, the same content again changes nothing,
// other content under a published version is a conflict and nothing is written.
func TestUpdatePublishedAppendOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dws.lock")
	if err := WriteLock(path, &Lock{Files: map[string]string{"x.json": sumOf("x")}}); err != nil {
		t.Fatal(err)
	}
	added, conflicts, err := UpdatePublished(path, map[string]Published{"cortex:a@v1.0": entry("a")})
	if err != nil || len(added) != 1 || len(conflicts) != 0 {
		t.Fatalf("first publish: %v %v %v", added, conflicts, err)
	}
	moved := entry("a")
	moved.Path = "elsewhere/a.json"
	added, conflicts, err = UpdatePublished(path, map[string]Published{"cortex:a@v1.0": moved})
	if err != nil || len(added) != 0 || len(conflicts) != 0 {
		t.Fatalf("same content again: %v %v %v", added, conflicts, err)
	}
	before, _ := os.ReadFile(path)
	added, conflicts, err = UpdatePublished(path, map[string]Published{"cortex:a@v1.0": entry("changed"), "cortex:b@v1.0": entry("b")})
	if err != nil || len(added) != 0 || len(conflicts) != 1 || conflicts[0].Key != "cortex:a@v1.0" {
		t.Fatalf("changed content: %v %v %v", added, conflicts, err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Fatalf("a conflict wrote the lockfile:\n%s", after)
	}
	l, err := ReadLock(path)
	if err != nil || l.Files["x.json"] != sumOf("x") || !l.Published["cortex:a@v1.0"].Equal(entry("a")) || l.Published["cortex:a@v1.0"].Path != "flows/a.json" {
		t.Fatalf("lockfile: %+v %v", l, err)
	}
}

// Writers of files and of published versions at once lose nothing.
func TestUpdatePublishedConcurrent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dws.lock")
	const writers, each = 6, 10
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers*each)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range each {
				k := fmt.Sprintf("cortex:w%d@v1.%d", w, i)
				if _, _, err := UpdatePublished(path, map[string]Published{k: entry(k)}); err != nil {
					errs <- err
				}
			}
		}()
		go func() {
			defer wg.Done()
			for i := range each {
				k := fmt.Sprintf("w%d/%d.json", w, i)
				if err := UpdateLock(path, map[string]string{k: sumOf(k)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	l, err := ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Published) != writers*each || len(l.Files) != writers*each {
		t.Fatalf("%d published, %d files; want %d each", len(l.Published), len(l.Files), writers*each)
	}
	assertOnly(t, dir, "dws.lock")
}

// A lockfile written before the published section existed reads and writes back byte
// for byte, with no section added, and so does one that has the section.
func TestPublishedOldLockBytes(t *testing.T) {
	old := "{\n  \"version\": 1,\n  \"files\": {\n    \"a.json\": \"" + sumOf("a") + "\",\n    \"b/c.yaml\": \"" + sumOf("c") + "\"\n  }\n}\n"
	withSection := "{\n  \"version\": 1,\n  \"files\": {},\n  \"published\": {\n    \"cortex:a@v1.0\": {\n      \"checksum\": \"" + sumOf("a") +
		"\",\n      \"nodes\": {\n        \"s\": \"" + sumOf("s") + "\"\n      },\n      \"path\": \"a.json\"\n    }\n  }\n}\n"
	for _, in := range []string{old, withSection} {
		l, err := ParseLock([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if in == old && l.Published != nil {
			t.Errorf("Published = %v, want nil", l.Published)
		}
		out, err := EncodeLock(l)
		if err != nil || string(out) != in {
			t.Errorf("wrote back (%v)\n%s\nread\n%s", err, out, in)
		}
	}
}

// Publishing what is published already leaves the lockfile alone: not rewritten (the
// same inode, the same modification time), whatever path the entry now gives. Other
// content under a published version, down to one node's hash, is a conflict that
// writes nothing; dws checksum --write (UpdateLock) keeps the section.
func TestUpdatePublishedLeavesFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dws.lock")
	if _, _, err := UpdatePublished(path, map[string]Published{"cortex:a@v1.0": entry("a")}); err != nil {
		t.Fatal(err)
	}
	// An old modification time, so that a rewrite in the same clock tick shows too.
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, past, past); err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(path)
	first, _ := os.ReadFile(path)
	same := func(what string) {
		t.Helper()
		st2, err := os.Stat(path)
		data, _ := os.ReadFile(path)
		if err != nil || !os.SameFile(st1, st2) || !st2.ModTime().Equal(past) || string(data) != string(first) {
			t.Errorf("%s rewrote the lockfile", what)
		}
	}
	moved := entry("a")
	moved.Path = "moved/a.json"
	if added, conflicts, err := UpdatePublished(path, map[string]Published{"cortex:a@v1.0": moved}); err != nil || len(added)+len(conflicts) != 0 {
		t.Fatalf("publishing again: %v %v %v", added, conflicts, err)
	}
	same("publishing again")

	e := entry("a")
	e.Nodes = map[string]string{"a": sumOf("other")}
	if added, conflicts, err := UpdatePublished(path, map[string]Published{"cortex:a@v1.0": e, "cortex:b@v1.0": entry("b")}); err != nil || len(added) != 0 || len(conflicts) != 1 {
		t.Fatalf("a node's hash changed: %v %v %v", added, conflicts, err)
	}
	same("a node-hash conflict")
	e.Nodes = map[string]string{"a": sumOf("a/a"), "new": sumOf("new")}
	if _, conflicts, _ := UpdatePublished(path, map[string]Published{"cortex:a@v1.0": e}); len(conflicts) != 1 {
		t.Fatalf("a node added is no conflict")
	}
	same("a node-added conflict")

	if err := UpdateLock(path, map[string]string{"c.json": sumOf("c")}); err != nil {
		t.Fatal(err)
	}
	l, err := ReadLock(path)
	if err != nil || len(l.Files) != 1 || len(l.Published) != 1 || !l.Published["cortex:a@v1.0"].Equal(entry("a")) {
		t.Fatalf("after UpdateLock: %+v %v", l, err)
	}
}

// dws checksum --write with nothing new leaves the lockfile alone; with something new
// it writes it.
func TestUpdateLockUnchangedNotWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dws.lock")
	if err := UpdateLock(path, map[string]string{"a.json": sumOf("a")}); err != nil {
		t.Fatal(err)
	}
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(path, past, past); err != nil {
		t.Fatal(err)
	}
	st1, _ := os.Stat(path)
	if err := UpdateLock(path, map[string]string{"a.json": sumOf("a")}); err != nil {
		t.Fatal(err)
	}
	if st2, err := os.Stat(path); err != nil || !os.SameFile(st1, st2) || !st2.ModTime().Equal(past) {
		t.Errorf("the same entry again rewrote the lockfile")
	}
	if err := UpdateLock(path, map[string]string{"a.json": sumOf("a2")}); err != nil {
		t.Fatal(err)
	}
	if l, err := ReadLock(path); err != nil || l.Files["a.json"] != sumOf("a2") {
		t.Errorf("a new checksum was not written: %+v %v", l, err)
	}
}
