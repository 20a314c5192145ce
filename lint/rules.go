package lint

import "strings"

// A minimal Cortex document most core-rule examples grow from; Cortex is the dialect
// every dws binary has.
const helloCortex = `{
  "schemaVersion": "1.0",
  "name": "hello",
  "version": "v1.0",
  "steps": [
    { "id": "say-hi", "type": "script", "params": { "code": "console.log('hi')" }, "onSuccess": null, "onFailure": null }
  ]
}
`

// helloOld is helloCortex as it was before its script changed, at the same version.
var helloOld = strings.Replace(helloCortex, "console.log('hi')", "console.log('hello')", 1)

// helloBroken is helloCortex with its step replaced by another (a breaking change).
var helloBroken = strings.Replace(helloCortex, `"id": "say-hi", "type": "script"`, `"id": "wave", "type": "script"`, 1)

// helloPublished is a lockfile that records helloCortex and publishes it as
// cortex:hello@v1.0.
const helloPublished = `{"version": 1, "files": {"hello.json": "` + helloSum + `"},
 "published": {"cortex:hello@v1.0": {"checksum": "` + helloSum + `",
   "nodes": {"say-hi": "sha256:97bd1057d26ad899df93d2e6bc068dd15a7024f81bff837ade2614956225cf08"}, "path": "hello.json"}}}
`

// helloSumV11 is the canonical checksum of helloCortex at version v1.1.
const helloSumV11 = "sha256:73f22538847a029679700ef241f1d61c1ed74e4348cc847d3fcc76e640c850d7"

// helloSum is the canonical checksum of helloCortex.
const helloSum = "sha256:495bc69aed01ab9e37c621db47a925d9e1840a17cdf91b4fbb66c35cb25fc521"

// coreRules are the rules of SPEC §4.1 that apply to every dialect.
var coreRules = []Rule{
	{
		ID: "read", Severity: Error,
		Summary: "the file cannot be read, or is not a regular file",
		Doc: `dws reads every file it is given with a hard ceiling: files above 4 MiB are not read at all,
and devices, pipes and sockets are refused so that a stray path can never hang a CI job.
A missing file, a permission problem, or a directory symlink loop is reported here instead
of stopping the run, so every other file still gets checked.`,
		Fail: Example{Name: "missing.json", Missing: true},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "parse", Severity: Error,
		Summary: "the file is not well-formed JSON or YAML",
		Doc: `JSON is read strictly (RFC 8259): duplicate keys, trailing commas, comments, NaN, leading
zeros and invalid UTF-8 are errors, because different consumers of the same file would
silently disagree about them. YAML is read as YAML 1.2 with bounded aliases; duplicate keys
and keys that are not strings are errors. The position is the first offending character.`,
		Fail: Example{Name: "trailing.json", Text: `{"schemaVersion": "1.0", "steps": [],}` + "\n"},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "size-limit", Severity: Error,
		Summary: "the file is larger than limits.max_bytes",
		Doc: `Workflow engines cap definition size (Cortex: 64 KB per DAG). dws reports files above
limits.max_bytes (default 65,536 bytes) and does not parse them: the run fails for them
anyway, and parsing what no engine accepts only costs memory. Raise the limit in .dws.yaml
if your engine allows larger definitions, or lower size-limit to a warning to have larger
files reported and still checked. Files above 4 MiB are never read.`,
		Fail: Example{Name: "big.json", Text: helloCortex, Config: "limits: { max_bytes: 64 }\n"},
		Pass: Example{Name: "hello.json", Text: helloCortex, Config: "limits: { max_bytes: 4096 }\n"},
	},
	{
		ID: "step-limit", Severity: Error,
		Summary: "a definition has more steps or phases than limits.max_steps",
		Doc: `Engines cap the number of steps in one definition (Cortex: 100). Very large definitions
are also hard to review; split them into sub-workflows, or raise limits.max_steps.`,
		Fail: Example{Name: "two.json", Config: "limits: { max_steps: 1 }\n", Text: `{
  "schemaVersion": "1.0", "name": "two-steps", "version": "v1.0",
  "steps": [
    { "id": "first", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "second" },
    { "id": "second", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex, Config: "limits: { max_steps: 1 }\n"},
	},
	{
		ID: "dialect", Severity: Error,
		Summary: "no dialect fits the file, or the one asked for does not",
		Doc: `Each file is validated as one dialect, chosen by --dialect, then the dialects: globs in
.dws.yaml, then a "$schema" naming a dws schema, then detection by top-level keys. A file
that fits no dialect is an error, never silently skipped; name its dialect in .dws.yaml or,
when it is no definition at all (a package.json, a Kubernetes manifest), leave it out with
exclude: in .dws.yaml, or with exclude: in the pre-commit hook that passes it.`,
		Fail: Example{Name: "unknown.json", Text: `{"hello": "world"}` + "\n"},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "schema", Severity: Error,
		Summary: "the dialect's JSON Schema rejects a value",
		Doc: `Every dialect has an embedded JSON Schema (print it with dws schema DIALECT) covering
shape: types, required keys, enums, patterns and unknown keys. Each failing value gets one
diagnostic at its own position; an unknown key is underlined at the key, so typos such as
"onSucess" never pass silently.`,
		Fail: Example{Name: "typo.json", Text: `{
  "schemaVersion": "1.0", "name": "typo", "version": "v1.0",
  "steps": [
    { "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSucess": null }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "duplicate-id", Severity: Error,
		Summary: "two steps, phases, tasks, hooks or workflows share an id in one scope",
		Doc: `Edges name their targets by id, so two nodes with one id make every edge to them
ambiguous. The first definition wins; later ones are reported (pointing back at the first)
and take no further part in the graph checks.`,
		Fail: Example{Name: "dup.json", Text: `{
  "schemaVersion": "1.0", "name": "dup", "version": "v1.0",
  "steps": [
    { "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": null },
    { "id": "nap", "type": "sleep", "params": { "seconds": 2 } }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "dangling-edge", Severity: Error,
		Summary: "an edge names a node that does not exist",
		Doc: `An edge (onSuccess, a transition's to, a next, an after) must name a node of the same
definition. A dangling edge is reported once and then ignored, so the node it leaves is
judged as if the edge were absent.`,
		Fail: Example{Name: "dangling.json", Text: `{
  "schemaVersion": "1.0", "name": "dangling", "version": "v1.0",
  "steps": [
    { "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "wake-up" }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "entry", Severity: Error,
		Summary: "the entry is missing or unknown, or a second node has no incoming edge",
		Doc: `A definition has exactly one entry (Cortex: steps[0]; DWS: entry_phase; DireClaw: a
workflow's first step). A node other than the entry that no edge leads to is a second
entry: the engine never runs it. Ensembles and task decompositions may have several roots,
so this rule does not apply to them.`,
		Fail: Example{Name: "orphan.json", Text: `{
  "schemaVersion": "1.0", "name": "orphan", "version": "v1.0",
  "steps": [
    { "id": "first", "type": "sleep", "params": { "seconds": 1 } },
    { "id": "orphan", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "unreachable", Severity: Error,
		Summary: "a node has incoming edges but cannot be reached from the entry",
		Doc: `A node fed only by nodes that never run (an island, or the successor of a second entry)
never runs either. Each node that cannot run gets exactly one finding: entry when nothing
leads to it, unreachable when something does.`,
		Fail: Example{Name: "island.json", Text: `{
  "schemaVersion": "1.0", "name": "island", "version": "v1.0",
  "steps": [
    { "id": "first", "type": "sleep", "params": { "seconds": 1 } },
    { "id": "orphan", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "fed" },
    { "id": "fed", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "cycle", Severity: Error,
		Summary: "a cycle that no bounded loop closes",
		Doc: `Cortex workflows and ensembles must be acyclic; a DWS workflow may loop only through a
loop transition with max_iterations. Each cycle is reported once, at its first member, with
every other member listed, whichever edge closes it.`,
		Fail: Example{Name: "cycle.json", Text: `{
  "schemaVersion": "1.0", "name": "cycle", "version": "v1.0",
  "steps": [
    { "id": "ping", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "pong" },
    { "id": "pong", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "ping" }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "dead-end", Severity: Error,
		Summary: "a reachable node from which no exit can be reached",
		Doc: `A run that enters such a node can never finish: every route out of it leads back into a
loop. Give the loop a way out (a phase without outgoing transitions in DWS, a step that routes
nowhere in DireClaw). A node that can reach a forbidden cycle, or whose edge names nothing, is
not also a dead end: the cycle or dangling-edge finding says why.`,
		Fail: Example{Name: "orchestrator.yaml", Text: strings.NewReplacer(
			"on_blocked: give-up", "next: check", "on_approve: publish", "on_approve: draft").Replace(iterationExample("draft"))},
		Pass: Example{Name: "orchestrator.yaml", Text: iterationExample("give-up"), Config: seedRelease},
	},
	{
		ID: "number-precision", Severity: Warning,
		Summary: "an integer outside ±2^53, which no JSON consumer reads exactly",
		Doc: `Most JSON consumers, JavaScript first among them, read numbers as IEEE 754 doubles, which
hold integers exactly only up to 2^53 (9,007,199,254,740,992). A larger id or amount silently
changes on its way through such a consumer, and the canonical checksum (RFC 8785) is computed
from the double too. Write such values as strings.`,
		Fail: Example{Name: "big.json", Text: `{
  "schemaVersion": "1.0", "name": "big-number", "version": "v1.0",
  "steps": [ { "id": "nap", "type": "sleep", "params": { "seconds": 9007199254740993 } } ]
}
`},
		Pass: Example{Name: "hello.json", Text: helloCortex},
	},
	{
		ID: "checksum-mismatch", Severity: Error, Inline: InlineNever,
		Summary: "the file's canonical checksum differs from the lockfile's",
		Doc: `With lock: in .dws.yaml, every checked file's canonical SHA-256 (RFC 8785 JSON, without the
top-level signature) must equal the lockfile's entry, so a definition cannot change without the
change being recorded. Formatting, key order and number spelling do not change the checksum;
any value does. After an intended change, run dws checksum --write with the lockfile.`,
		Fail: Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {"hello.json": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}}` + "\n"}},
		Pass: Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {"hello.json": "` + helloSum + `"}}` + "\n"}},
	},
	{
		ID: "checksum-missing", Severity: Warning, Inline: InlineNever,
		Summary: "a lockfile is configured and does not list the file",
		Doc: `A file the lockfile does not know is not protected by it. Record it with
dws checksum --write, or exclude it from what dws checks.`,
		Fail: Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {}}` + "\n"}},
		Pass: Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {"hello.json": "` + helloSum + `"}}` + "\n"}},
	},
	{
		ID: "version-not-bumped", Severity: Error, Diff: true,
		Summary: "a versioned definition changed and its version did not (dws diff)",
		Doc: `A version names content: a runtime that resumes a run, a lockfile that records what was
published, a reviewer who approved v1.4 all rely on v1.4 meaning one thing. dws diff compares the
two versions of each unit (cortex, dws-workflow, dws-contract, direclaw) and classes every change
breaking, feature or cosmetic; any change with the version left as it was is reported here. Bump
the version as the change's class needs (see version-bump-too-small).`,
		Fail: Example{Name: "hello.json", Text: helloCortex, Files: map[string]string{"old/hello.json": helloOld}},
		Pass: Example{Name: "hello.json", Text: helloCortex, Files: map[string]string{"old/hello.json": helloCortex}},
	},
	{
		ID: "version-bump-too-small", Severity: Error, Diff: true,
		Summary: "the version went up by less than the changes need (dws diff)",
		Doc: `Breaking changes (a node removed or retyped, an edge removed or retargeted, the entry
moved, a limit tightened, fewer paths to an end state, a step reading what nothing before it
produces) need a MAJOR bump, or a MINOR one below 1.0; features (anything added; a prompt, model,
SQL, URL, agent, condition or bound changed) a MINOR; cosmetic changes (descriptions, names, tags)
a PATCH. Cortex versions have no patch level, so cosmetic changes need a MINOR there; DireClaw's
integer versions need any increment. dws diff prints each change with its class.`,
		Fail: Example{Name: "hello.json", Text: strings.Replace(helloBroken, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
		Pass: Example{Name: "hello.json", Text: strings.Replace(helloOld, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
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
		Fail: Example{Name: "hello.json", Text: strings.Replace(helloBroken, `"v1.0"`, `"v2.0"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
		Pass: Example{Name: "hello.json", Text: strings.Replace(helloOld, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
	},
	{
		ID: "version-decreased", Severity: Error, Diff: true,
		Summary: "the version is lower than the old one (dws diff)",
		Doc: `Versions only go up: a lower version would name content that was, or may later be,
published under it. dws diff reports a NEW version below OLD's whether or not anything else
changed.`,
		Fail: Example{Name: "hello.json", Text: strings.Replace(helloCortex, `"v1.0"`, `"v0.9"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
		Pass: Example{Name: "hello.json", Text: strings.Replace(helloCortex, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
	},
	{
		ID: "version-mutated", Severity: Error, Inline: InlineNever,
		Summary: "a published version's content changed",
		Doc: `The lockfile's published section records, for each unit@version published with dws
checksum --write --publish, the checksum of its content and each node's hash. A published
version never changes ("a checksum to guarantee immutability"): a runtime, a cache or a
reviewer that knows v1.4 must get v1.4. When the file's unit has a published version and its
content differs, bump the version (dws diff says by how much) and publish the new one.`,
		Fail: Example{Name: "hello.json", Text: helloOld, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": helloPublished}},
		Pass: Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": helloPublished}},
	},
	{
		ID: "version-unpublished", Severity: Info, Inline: InlineNever,
		Summary: "the file's version is not in the lockfile's published section yet",
		Doc: `Once a lockfile has a published section, every versioned unit is expected to be
published before it is deployed (dws checksum --check --published is the deploy gate). A new
version that is not published yet is reported here, so that publishing it is not forgotten:
dws checksum --write dws.lock --publish.`,
		Fail: Example{Name: "hello.json", Text: strings.Replace(helloCortex, `"v1.0"`, `"v1.1"`, 1), Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": strings.Replace(helloPublished, "sha256:495bc69aed01ab9e37c621db47a925d9e1840a17cdf91b4fbb66c35cb25fc521", helloSumV11, 1)}},
		Pass: Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": helloPublished}},
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
		Fail: Example{Name: "hello.yaml", Text: `# dws:ignore cycle -- nothing here loops
schemaVersion: "1.0"
name: hello
version: v1.0
steps:
  - { id: say-hi, type: script, params: { code: "1" } }
`},
		Pass: Example{Name: "hello.yaml", Text: `schemaVersion: "1.0"
name: hello
version: v1.0
steps:
  - id: say-hi
    type: script
    params: { code: "1" }
    # dws:ignore dangling-edge -- the next step is added by a later migration
    onSuccess: later
`},
	},
	{
		ID: "ref", Severity: Error,
		Summary: "a by-name reference that is not routing resolves to nothing",
		Doc: `Some fields name something defined elsewhere without being a route of the graph: in a DWS
job spec a skill_ref, workflow_ref, intent_ref or delegation role; in DireClaw a step's
agent (a key of agents) and the step ids a step needs. A name that resolves to nothing
fails only when a run reaches that step, so dws checks them all up front. Routing fields
(edges) are checked by dangling-edge instead. Each dialect says which of its fields are
references.`,
		Fail: Example{Name: "orchestrator.yaml", Text: refExample("wroker")},
		Pass: Example{Name: "orchestrator.yaml", Text: refExample("worker")},
	},
	{
		ID: "sim-unhandled-failure", Severity: Info, Sim: true,
		Summary: "a step can fail and nothing handles the failure",
		Doc: `dws simulate runs every path. A step whose fail outcome ends the run (a Cortex onFailure
that is null or absent, a DWS phase without a failure route) makes every such path end
failed with nothing recorded or cleaned up. That may be what you want; if it is not, route
the failure to a step that handles it. Each such step is reported once.`,
		Fail: Example{Name: "hello.json", Text: `{
  "schemaVersion": "1.0", "name": "unhandled", "version": "v1.0",
  "steps": [
    { "id": "send-report", "type": "script", "params": { "code": "send()" }, "onSuccess": null, "onFailure": null }
  ]
}
`},
		Pass: Example{Name: "hello.json", Text: `{
  "schemaVersion": "1.0", "name": "handled", "version": "v1.0",
  "steps": [
    { "id": "send-report", "type": "script", "params": { "code": "send()" }, "onSuccess": null, "onFailure": "note-it" },
    { "id": "note-it", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": null }
  ]
}
`},
	},
	{
		ID: "sim-stub-output", Severity: Error, Sim: true,
		Summary: "no stub output can fit the output schema a step declares",
		Doc: `A simulated step answers with an output that fits what the step declares: a Cortex ai step's
output schema from the prompt-template registry, a DireClaw review's decision. A schema that
admits no value at all (a minimum above its maximum, an empty enum, an integer range with no
integer in it) means the real step can never succeed either: every output the model returns
would be rejected. Fix the schema in the registry.`,
		Fail: Example{Name: "score.json", Text: stubExample, Config: "cortex: { prompt_templates: prompts.yaml }\n",
			Files: map[string]string{"prompts.yaml": stubRegistry("2")}},
		Pass: Example{Name: "score.json", Text: stubExample, Config: "cortex: { prompt_templates: prompts.yaml }\n",
			Files: map[string]string{"prompts.yaml": stubRegistry("0")}},
	},
	{
		ID: "sim-max-iterations", Severity: Warning, Sim: true,
		Summary: "some path hits the run's iteration limit",
		Doc: `Some engines bound a whole run: DireClaw's max_total_iterations (the workflow's limits,
else workflow_orchestration, else 12; a retried attempt is not a new visit), a DWS
workflow's global max_iterations. dws simulate follows every loop up to that limit and
reports each step at which some run has used it up: the step that run routes to next is
not run, and the run ends failed. A review that sends work back (on_reject to an earlier
step) can always hit the limit if the reviewer keeps rejecting, so every such loop is
reported: check that the limit leaves room for the rejections you expect, or send a
repeated rejection somewhere that ends the run on purpose. (The passing example turns
sim-unhandled-failure off: without it, every DireClaw step that can fail without a route
would be reported too.)`,
		Fail: Example{Name: "orchestrator.yaml", Text: iterationExample("draft"), Config: seedRelease},
		Pass: Example{Name: "orchestrator.yaml", Text: iterationExample("give-up"),
			Config: "rules: { sim-unhandled-failure: off }\n" + seedRelease},
	},
}

// seedRelease checks a DireClaw example as the seed format, whose on_blocked route
// iterationExample takes (current releases ignore it, and direclaw-compat says so).
const seedRelease = "direclaw: { release: seed }\n"

// iterationExample is a DireClaw orchestrator whose review sends a rejection to the
// given step: back to the draft (a loop that max_total_iterations ends) or onward.
func iterationExample(onReject string) string {
	return `id: demo
selector_agent: router
default_workflow: write
selection_max_retries: 2
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  worker: { provider: openai, model: gpt-5 }
workflows:
  - id: write
    version: 1
    description: Draft, review, publish
    tags: [default]
    inputs: [user_message]
    limits: { max_total_iterations: 4 }
    steps:
      - id: draft
        type: agent_task
        agent: worker
        prompt: "Draft: {{inputs.user_message}}"
        outputs: [summary]
        output_files: { summary: draft/summary.txt }
        on_blocked: give-up
      - id: check
        type: agent_review
        agent: worker
        prompt: "Approve or reject {{steps.draft.outputs.summary}}"
        outputs: [decision, summary]
        output_files: { decision: check/decision.txt, summary: check/summary.txt }
        on_approve: publish
        on_reject: ` + onReject + `
      - id: give-up
        type: agent_task
        agent: worker
        prompt: "Tell the user why there is no draft to publish"
        outputs: [summary]
        output_files: { summary: give-up/summary.txt }
        next: done
      - id: publish
        type: agent_task
        agent: worker
        prompt: "Publish {{steps.draft.outputs.summary}}"
        outputs: [summary]
        output_files: { summary: publish/summary.txt }
        next: done
      - id: done
        type: agent_task
        agent: router
        prompt: "Report the outcome"
        outputs: [summary]
        output_files: { summary: done/summary.txt }
workflow_orchestration:
  max_total_iterations: 12
`
}

// refExample is a DireClaw orchestrator whose one step names the given agent.
func refExample(agent string) string {
	return `id: demo
selector_agent: router
default_workflow: answer
selection_max_retries: 2
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  worker: { provider: openai, model: gpt-5 }
workflows:
  - id: answer
    version: 1
    description: Answer a question
    tags: [default]
    inputs: [user_message]
    steps:
      - id: reply
        type: agent_task
        agent: ` + agent + `
        prompt: "Answer: {{inputs.user_message}}"
        outputs: [summary]
        output_files:
          summary: reply/summary__{{workflow.run_id}}.txt
workflow_orchestration:
  max_total_iterations: 12
  default_step_timeout_seconds: 900
  max_step_timeout_seconds: 1800
`
}

// stubExample is a Cortex definition with one ai step whose output schema is "risk".
const stubExample = `{
  "schemaVersion": "1.0", "name": "score", "version": "v1.0",
  "steps": [
    { "id": "score-it", "type": "ai", "params": { "promptTemplate": "score", "model": "gpt-4o", "schema": "risk" }, "onSuccess": null, "onFailure": "give-up" },
    { "id": "give-up", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": null }
  ]
}
`

// stubRegistry is a prompt-template registry whose "risk" schema's score has the given
// minimum and a maximum of 1.
func stubRegistry(minimum string) string {
	return `templates:
  score: { purpose: Score the risk, schema: risk }
schemas:
  risk:
    type: object
    required: [score]
    properties:
      score: { type: number, minimum: ` + minimum + `, maximum: 1 }
`
}
