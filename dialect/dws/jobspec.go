package dws

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// How dws reads a job spec (SPEC §2.1), where the seeds show no format:
//   - The job spec is the directory holding jobspec.json; a path inside it belongs to the
//     nearest such directory above it. Definitions are the *.json, *.yaml and *.yml files
//     under workers/, workflows/, contracts/, teams/ and tasks/ (at any depth, dot
//     directories skipped); skills/, intents/ and outcomes/ are context, read only to
//     resolve references. A file counts as what its folder says, whatever it looks like.
//   - jobspec.json: dws reads only the workflow_ref, skill_ref and intent_ref values in it
//     (like those anywhere in a definition).
//   - A worker is named by identity.name (what worker_ref matches); its roles are role
//     and/or roles; the artifact types it produces are artifact_types (strings, or objects
//     with type), all at the top level. Nothing else of a worker is read.
//   - A skill is named name@version from its top-level name and version; a workflow by its
//     name; an intent by its id.
//   - The roles of the job spec are the workers' roles and the team members' roles:
//     contract parties, delegation roles and phase roles (worker_assignment.role, checked
//     by ref) may name either. A task's role must be a worker's (task-role).
//   - A reference into a folder the job spec does not have is not checked: skill refs need
//     skills/, intent refs intents/, workflow refs and sub_workflow workflows/; role checks
//     need workers/ (or teams/ for the roles a team may supply).
//   - contract-artifact is judged only for producer roles some worker holds; a role nobody
//     holds is contract-party's finding. Producer and consumer counts are checked in every
//     contract file, in a job spec or not.
//   - Task dependencies are checked as edges from the dependent task to its dependency
//     (the opposite of the order the tasks run in), which finds the same cycles and puts a
//     dangling dependency at the entry that names it. Only duplicate-id, dangling-edge and
//     cycle apply to them.
//   - Two workers with one identity.name, or two workflows with one name, are duplicate-id.

var (
	checkFolders   = []string{"workers", "workflows", "contracts", "teams", "tasks"}
	contextFolders = []string{"skills", "intents", "outcomes"}
)

// bundleRoot is the nearest directory at or above path that holds jobspec.json.
func bundleRoot(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	dir := abs
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		dir = filepath.Dir(abs)
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, ManifestName)); err == nil && st.Mode().IsRegular() {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// bundleFiles lists a job spec: the manifest and the definition folders are checked;
// skills, intents and outcomes are context.
func bundleFiles(root string) (check, context []string, err error) {
	check = []string{filepath.Join(root, ManifestName)}
	for _, folder := range checkFolders {
		fs, err := folderFiles(root, folder)
		if err != nil {
			return nil, nil, err
		}
		check = append(check, fs...)
	}
	for _, folder := range contextFolders {
		fs, err := folderFiles(root, folder)
		if err != nil {
			return nil, nil, err
		}
		context = append(context, fs...)
	}
	return check, context, nil
}

func folderFiles(root, folder string) ([]string, error) {
	dir := filepath.Join(root, folder)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil // an absent folder is an empty one
	}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".yaml", ".yml":
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// doc is one parsed file of a job spec.
type doc struct {
	f      *lint.File
	root   *source.Node
	folder string // "" for the manifest
	idx    int
}

type workerDef struct {
	d       *doc
	name    string
	roles   []string
	types   []string
	typePtr string
}

// bundle is one job spec, read tolerantly.
type bundle struct {
	has       map[string]bool // folders present
	docs      []*doc
	byFolder  map[string][]*doc
	workers   map[string]*workerDef
	roleOf    map[string][]*workerDef // role -> workers holding it
	teamRoles map[string]bool
	skills    map[string]bool
	intents   map[string]bool
	workflows map[string]*doc
}

// checkBundle runs the job spec's cross-file rules.
func checkBundle(root string, files []*lint.File) {
	b := loadBundle(root, files)
	b.checkWorkers()
	b.checkTeams()
	b.checkContracts()
	b.checkTasks()
	b.checkTaskGraph()
	b.checkWorkflows()
	b.checkSubWorkflows()
	b.checkRefs()
}

func loadBundle(root string, files []*lint.File) *bundle {
	b := &bundle{has: map[string]bool{}, byFolder: map[string][]*doc{}, workers: map[string]*workerDef{},
		roleOf: map[string][]*workerDef{}, teamRoles: map[string]bool{}, skills: map[string]bool{},
		intents: map[string]bool{}, workflows: map[string]*doc{}}
	for _, folder := range append(slices.Clone(checkFolders), contextFolders...) {
		if st, err := os.Stat(filepath.Join(root, folder)); err == nil && st.IsDir() {
			b.has[folder] = true
		}
	}
	for _, f := range files {
		if f.Doc == nil || f.Doc.Root == nil || f.Doc.Root.Kind != source.Object {
			continue
		}
		abs, err := filepath.Abs(filepath.FromSlash(f.Path))
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		folder, _, nested := strings.Cut(rel, "/")
		if !nested {
			if rel != ManifestName {
				continue
			}
			folder = ""
		}
		d := &doc{f: f, root: f.Doc.Root, folder: folder, idx: len(b.docs)}
		b.docs = append(b.docs, d)
		b.byFolder[folder] = append(b.byFolder[folder], d)
	}
	for _, d := range b.byFolder["skills"] {
		name, ok1 := d.root.Get("name").Str()
		version, ok2 := d.root.Get("version").Str()
		if ok1 && ok2 {
			b.skills[name+"@"+version] = true
		}
	}
	for _, d := range b.byFolder["intents"] {
		if id, ok := d.root.Get("id").Str(); ok {
			b.intents[id] = true
		}
	}
	for _, d := range b.byFolder["teams"] {
		for _, m := range items(d.root.Get("team").Get("members")) {
			if r, ok := m.Get("role").Str(); ok {
				b.teamRoles[r] = true
			}
		}
	}
	return b
}

// checkWorkers reads the workers and reports duplicate names.
func (b *bundle) checkWorkers() {
	for _, d := range b.byFolder["workers"] {
		name, ok := d.root.Get("identity").Get("name").Str()
		if !ok || name == "" {
			continue
		}
		if first := b.workers[name]; first != nil {
			d.f.Report("duplicate-id", "/identity/name", "worker "+quote(name)+" is defined twice",
				first.d.f.Related("/identity/name", "first defined here"))
			continue
		}
		w := &workerDef{d: d, name: name, typePtr: "/identity/name"}
		if r, ok := d.root.Get("role").Str(); ok && r != "" {
			w.roles = append(w.roles, r)
		}
		for _, it := range items(d.root.Get("roles")) {
			if r, ok := it.Str(); ok && r != "" && !slices.Contains(w.roles, r) {
				w.roles = append(w.roles, r)
			}
		}
		if d.root.Get("artifact_types") != nil {
			w.typePtr = "/artifact_types"
		}
		for _, it := range items(d.root.Get("artifact_types")) {
			t, ok := it.Str()
			if !ok {
				t, ok = it.Get("type").Str()
			}
			if ok && t != "" {
				w.types = append(w.types, t)
			}
		}
		b.workers[name] = w
		for _, r := range w.roles {
			b.roleOf[r] = append(b.roleOf[r], w)
		}
	}
}

// knowsRoles reports whether the job spec has anywhere roles come from.
func (b *bundle) knowsRoles() bool { return b.has["workers"] || b.has["teams"] }

// isRole reports a role held by a worker or a team member.
func (b *bundle) isRole(r string) bool { return len(b.roleOf[r]) > 0 || b.teamRoles[r] }

// roles are the roles workers and team members hold, sorted, for a "did you mean".
func (b *bundle) roles() []string {
	set := maps.Clone(b.teamRoles)
	for r, ws := range b.roleOf {
		if len(ws) > 0 {
			set[r] = true
		}
	}
	return names(set)
}

// names are a name-keyed map's names, sorted, for a "did you mean".
func names[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func (w *workerDef) rolesText() string {
	if len(w.roles) == 0 {
		return "it has no role"
	}
	return "its roles: " + strings.Join(w.roles, ", ")
}

// workflow is a workflow file's model: the one its dialect decoded in this run, or,
// for a file that was not given a dialect, one read now.
func (d *doc) workflow() *workflow {
	if w, ok := d.f.Model.(*workflow); ok {
		return w
	}
	return decodeWorkflow(d.root)
}
