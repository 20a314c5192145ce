package lint

// coreRules are the rules of SPEC §4.1 that apply to every dialect. Their examples
// are the dialects' (Dialect.Examples): a core rule is the same in every format.
var coreRules = []Rule{
	{
		ID: "read", Severity: Error,
		Summary: "the file cannot be read, or is not a regular file",
		Doc: `dws reads every file it is given with a hard ceiling: files above 4 MiB are not read at all,
and devices, pipes and sockets are refused so that a stray path can never hang a CI job.
A missing file, a permission problem, or a directory symlink loop is reported here instead
of stopping the run, so every other file still gets checked.`,
	},
	{
		ID: "parse", Severity: Error,
		Summary: "the file is not well-formed JSON or YAML",
		Doc: `JSON is read strictly (RFC 8259): duplicate keys, trailing commas, comments, NaN, leading
zeros and invalid UTF-8 are errors, because different consumers of the same file would
silently disagree about them. YAML is read as YAML 1.2 with bounded aliases; duplicate keys
and keys that are not strings are errors. The position is the first offending character.`,
	},
	{
		ID: "size-limit", Severity: Error,
		Summary: "the file is larger than limits.max_bytes",
		Doc: `Workflow engines cap definition size (Cortex: 64 KB per DAG). dws reports files above
limits.max_bytes (default 65,536 bytes) and does not parse them: the run fails for them
anyway, and parsing what no engine accepts only costs memory. Raise the limit in .dws.yaml
if your engine allows larger definitions, or lower size-limit to a warning to have larger
files reported and still checked. Files above 4 MiB are never read.`,
	},
	{
		ID: "step-limit", Severity: Error,
		Summary: "a definition has more steps or phases than limits.max_steps",
		Doc: `Engines cap the number of steps in one definition (Cortex: 100). Very large definitions
are also hard to review; split them into sub-workflows, or raise limits.max_steps.`,
	},
	{
		ID: "dialect", Severity: Error,
		Summary: "no dialect fits the file, or the one asked for does not",
		Doc: `Each file is validated as one dialect, chosen by --dialect, then the dialects: globs in
.dws.yaml, then a "$schema" naming a dws schema, then detection by top-level keys. A file
that fits no dialect is an error, never silently skipped; name its dialect in .dws.yaml or,
when it is no definition at all (a package.json, a Kubernetes manifest), leave it out with
exclude: in .dws.yaml, or with exclude: in the pre-commit hook that passes it.`,
	},
	{
		ID: "schema", Severity: Error,
		Summary: "the dialect's JSON Schema rejects a value",
		Doc: `Every dialect has an embedded JSON Schema (print it with dws schema DIALECT) covering
shape: types, required keys, enums, patterns and unknown keys. Each failing value gets one
diagnostic at its own position; an unknown key is underlined at the key, so typos such as
"onSucess" never pass silently.`,
	},
	{
		ID: "duplicate-id", Severity: Error,
		Summary: "two steps, phases, tasks, hooks or workflows share an id in one scope",
		Doc: `Edges name their targets by id, so two nodes with one id make every edge to them
ambiguous. The first definition wins; later ones are reported (pointing back at the first)
and take no further part in the graph checks.`,
	},
	{
		ID: "dangling-edge", Severity: Error,
		Summary: "an edge names a node that does not exist",
		Doc: `An edge (each field by which a node names the node a run goes to next) must name a node
of the same definition. A dangling edge is reported once and then ignored, so the node it leaves is
judged as if the edge were absent.`,
	},
	{
		ID: "entry", Severity: Error,
		Summary: "the entry is missing or unknown, or a second node has no incoming edge",
		Doc: `A definition has exactly one entry, the node a run starts at (which one is the
dialect's: docs/dialects.md). A node other than the entry that no edge leads to is a second
entry: the engine never runs it. Dialects whose definitions may have several roots (a DAG
of tasks that all start at once) say so, and this rule does not apply to them.`,
	},
	{
		ID: "unreachable", Severity: Error,
		Summary: "a node has incoming edges but cannot be reached from the entry",
		Doc: `A node fed only by nodes that never run (an island, or the successor of a second entry)
never runs either. Each node that cannot run gets exactly one finding: entry when nothing
leads to it, unreachable when something does.`,
	},
	{
		ID: "cycle", Severity: Error,
		Summary: "a cycle that no bounded loop closes",
		Doc: `A definition may loop only where its dialect gives a loop a bound (docs/dialects.md
says which); any other cycle would run forever or be refused by the engine. Each cycle is reported once, at its first member, with
every other member listed, whichever edge closes it.`,
	},
	{
		ID: "dead-end", Severity: Error,
		Summary: "a reachable node from which no exit can be reached",
		Doc: `A run that enters such a node can never finish: every route out of it leads back into a
loop. Give the loop a way out: a route to a node that ends the run. A node that can reach a forbidden cycle, or whose edge names nothing, is
not also a dead end: the cycle or dangling-edge finding says why.`,
	},
	{
		ID: "number-precision", Severity: Warning,
		Summary: "an integer outside ±2^53, which no JSON consumer reads exactly",
		Doc: `Most JSON consumers, JavaScript first among them, read numbers as IEEE 754 doubles, which
hold integers exactly only up to 2^53 (9,007,199,254,740,992). A larger id or amount silently
changes on its way through such a consumer, and the canonical checksum (RFC 8785) is computed
from the double too. Write such values as strings.`,
	},
	{
		ID: "checksum-mismatch", Severity: Error, Inline: InlineNever,
		Summary: "the file's canonical checksum differs from the lockfile's",
		Doc: `With lock: in .dws.yaml, every checked file's canonical SHA-256 (RFC 8785 JSON, without the
top-level signature) must equal the lockfile's entry, so a definition cannot change without the
change being recorded. Formatting, key order and number spelling do not change the checksum;
any value does. After an intended change, run dws checksum --write with the lockfile.`,
	},
	{
		ID: "checksum-missing", Severity: Warning, Inline: InlineNever,
		Summary: "a lockfile is configured and does not list the file",
		Doc: `A file the lockfile does not know is not protected by it. Record it with
dws checksum --write, or exclude it from what dws checks.`,
	},
	{
		ID: "version-not-bumped", Severity: Error, Diff: true,
		Summary: "a versioned definition changed and its version did not (dws diff)",
		Doc: `A version names content: a runtime that resumes a run, a lockfile that records what was
published, a reviewer who approved v1.4 all rely on v1.4 meaning one thing. dws diff compares the
two versions of each unit (each dialect's versioned definitions: docs/change.md) and classes every change
breaking, feature or cosmetic; any change with the version left as it was is reported here. Bump
the version as the change's class needs (see version-bump-too-small).`,
	},
	{
		ID: "version-bump-too-small", Severity: Error, Diff: true,
		Summary: "the version went up by less than the changes need (dws diff)",
		Doc: `Breaking changes (a node removed or retyped, an edge removed or retargeted, the entry
moved, a limit tightened, fewer paths to an end state, a step reading what nothing before it
produces) need a MAJOR bump, or a MINOR one below 1.0; features (anything added; a prompt, model,
SQL, URL, agent, condition or bound changed) a MINOR; cosmetic changes (descriptions, names, tags)
a PATCH. A version scheme without a patch level needs a MINOR for cosmetic changes, and an
integer version any increment (docs/change.md has each dialect's scheme). dws diff prints each
change with its class.`,
	},
	{
		ID: "breaking-change", Severity: Warning, Diff: true,
		Summary: "a change that breaks runs or callers of a definition (dws diff's CI formats)",
		Doc: `dws diff classes every change of a versioned definition. A breaking one (a node removed or
retyped, an edge removed or retargeted, the entry moved, a limit tightened, fewer paths to an
end state, a step reading what nothing before it produces) is reported as breaking-change in
dws diff's SARIF, JUnit and codeclimate output, at its place in the new file, with the change's
fingerprint. Approve an intended one with dws diff --ack; --fail-on breaking makes any other
fail the run.`,
	},
	{
		ID: "version-decreased", Severity: Error, Diff: true,
		Summary: "the version is lower than the old one (dws diff)",
		Doc: `Versions only go up: a lower version would name content that was, or may later be,
published under it. dws diff reports a NEW version below OLD's whether or not anything else
changed.`,
	},
	{
		ID: "version-mutated", Severity: Error, Inline: InlineNever,
		Summary: "a published version's content changed",
		Doc: `The lockfile's published section records, for each unit@version published with dws
checksum --write --publish, the checksum of its content and each node's hash. A published
version never changes ("a checksum to guarantee immutability"): a runtime, a cache or a
reviewer that knows v1.4 must get v1.4. When the file's unit has a published version and its
content differs, bump the version (dws diff says by how much) and publish the new one.`,
	},
	{
		ID: "version-unpublished", Severity: Info, Inline: InlineNever,
		Summary: "the file's version is not in the lockfile's published section yet",
		Doc: `Once a lockfile has a published section, every versioned unit is expected to be
published before it is deployed (dws checksum --check --published is the deploy gate). A new
version that is not published yet is reported here, so that publishing it is not forgotten:
dws checksum --write dws.lock --publish.`,
	},
	{
		ID: "unused-suppression", Severity: Warning,
		Summary: "an ignore entry, inline ignore or baseline entry matched nothing",
		Doc: `Suppressions outlive the findings they were written for. One that no longer matches
anything hides nothing today but would hide a new finding tomorrow; delete it. Config ignore
entries and baseline entries are only judged against files checked in the same run. A
suppression that hides nothing because it is malformed (no rule, no reason, or the
placeholder reason the language server's quick fix writes, "TODO: say why this is safe")
is reported here too, saying what to write.`,
	},
	{
		ID: "ref", Severity: Error,
		Summary: "a by-name reference that is not routing resolves to nothing",
		Doc: `Some fields name something defined elsewhere without being a route of the graph: a skill,
an agent, a role, a workflow of another file, the steps a step needs. A name that resolves to nothing
fails only when a run reaches that step, so dws checks them all up front. Routing fields
(edges) are checked by dangling-edge instead. Each dialect says which of its fields are
references.`,
	},
	{
		ID: "sim-unhandled-failure", Severity: Info, Sim: true,
		Summary: "a step can fail and nothing handles the failure",
		Doc: `dws simulate runs every path. A step whose fail outcome ends the run (it has no route
for failure, or the route is null) makes every such path end
failed with nothing recorded or cleaned up. That may be what you want; if it is not, route
the failure to a step that handles it. Each such step is reported once.`,
	},
	{
		ID: "sim-stub-output", Severity: Error, Sim: true,
		Summary: "no stub output can fit the output schema a step declares",
		Doc: `A simulated step answers with an output that fits what the step declares: the output
schema of a model's step (from a prompt-template registry), a review's decision. A schema that
admits no value at all (a minimum above its maximum, an empty enum, an integer range with no
integer in it) means the real step can never succeed either: every output the model returns
would be rejected. Fix the schema in the registry.`,
	},
	{
		ID: "sim-max-iterations", Severity: Warning, Sim: true,
		Summary: "some path hits the run's iteration limit",
		Doc: `Some engines bound a whole run: a limit on the steps a run may take in all, or a global
bound on a workflow's loops (docs/dialects.md says each dialect's limit and its default).
dws simulate follows every loop up to that limit and
reports each step at which some run has used it up: the step that run routes to next is
not run, and the run ends failed. A review that sends work back (a rejection routed to an
earlier step) can always hit the limit if the reviewer keeps rejecting, so every such loop is
reported: check that the limit leaves room for the rejections you expect, or send a
repeated rejection somewhere that ends the run on purpose. (The passing example turns
sim-unhandled-failure off: without it, every step that can fail without a route would be
reported too.)`,
	},
}
