package cortex

import (
	"strings"

	"github.com/dwsdev/dws/lint"
)

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

// coreExamples are the Cortex examples of the core rules' documentation (dws explain):
// Cortex is the dialect most of them are shown in.
var coreExamples = map[string]lint.Examples{
	"read": {
		Fail: lint.Example{Name: "missing.json", Missing: true},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"parse": {
		Fail: lint.Example{Name: "trailing.json", Text: `{"schemaVersion": "1.0", "steps": [],}` + "\n"},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"size-limit": {
		Fail: lint.Example{Name: "big.json", Text: helloCortex, Config: "limits: { max_bytes: 64 }\n"},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex, Config: "limits: { max_bytes: 4096 }\n"},
	},
	"step-limit": {
		Fail: lint.Example{Name: "two.json", Config: "limits: { max_steps: 1 }\n", Text: `{
  "schemaVersion": "1.0", "name": "two-steps", "version": "v1.0",
  "steps": [
    { "id": "first", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "second" },
    { "id": "second", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex, Config: "limits: { max_steps: 1 }\n"},
	},
	"dialect": {
		Fail: lint.Example{Name: "unknown.json", Text: `{"hello": "world"}` + "\n"},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"schema": {
		Fail: lint.Example{Name: "typo.json", Text: `{
  "schemaVersion": "1.0", "name": "typo", "version": "v1.0",
  "steps": [
    { "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSucess": null }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"duplicate-id": {
		Fail: lint.Example{Name: "dup.json", Text: `{
  "schemaVersion": "1.0", "name": "dup", "version": "v1.0",
  "steps": [
    { "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": null },
    { "id": "nap", "type": "sleep", "params": { "seconds": 2 } }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"dangling-edge": {
		Fail: lint.Example{Name: "dangling.json", Text: `{
  "schemaVersion": "1.0", "name": "dangling", "version": "v1.0",
  "steps": [
    { "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "wake-up" }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"entry": {
		Fail: lint.Example{Name: "orphan.json", Text: `{
  "schemaVersion": "1.0", "name": "orphan", "version": "v1.0",
  "steps": [
    { "id": "first", "type": "sleep", "params": { "seconds": 1 } },
    { "id": "orphan", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"unreachable": {
		Fail: lint.Example{Name: "island.json", Text: `{
  "schemaVersion": "1.0", "name": "island", "version": "v1.0",
  "steps": [
    { "id": "first", "type": "sleep", "params": { "seconds": 1 } },
    { "id": "orphan", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "fed" },
    { "id": "fed", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"cycle": {
		Fail: lint.Example{Name: "cycle.json", Text: `{
  "schemaVersion": "1.0", "name": "cycle", "version": "v1.0",
  "steps": [
    { "id": "ping", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "pong" },
    { "id": "pong", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "ping" }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"number-precision": {
		Fail: lint.Example{Name: "big.json", Text: `{
  "schemaVersion": "1.0", "name": "big-number", "version": "v1.0",
  "steps": [ { "id": "nap", "type": "sleep", "params": { "seconds": 9007199254740993 } } ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex},
	},
	"checksum-mismatch": {
		Fail: lint.Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {"hello.json": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}}` + "\n"}},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {"hello.json": "` + helloSum + `"}}` + "\n"}},
	},
	"checksum-missing": {
		Fail: lint.Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {}}` + "\n"}},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": `{"version": 1, "files": {"hello.json": "` + helloSum + `"}}` + "\n"}},
	},
	"unused-suppression": {
		Fail: lint.Example{Name: "hello.yaml", Text: `# dws:ignore cycle -- nothing here loops
schemaVersion: "1.0"
name: hello
version: v1.0
steps:
  - { id: say-hi, type: script, params: { code: "1" } }
`},
		Pass: lint.Example{Name: "hello.yaml", Text: `schemaVersion: "1.0"
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
	"sim-unhandled-failure": {
		Fail: lint.Example{Name: "hello.json", Text: `{
  "schemaVersion": "1.0", "name": "unhandled", "version": "v1.0",
  "steps": [
    { "id": "send-report", "type": "script", "params": { "code": "send()" }, "onSuccess": null, "onFailure": null }
  ]
}
`},
		Pass: lint.Example{Name: "hello.json", Text: `{
  "schemaVersion": "1.0", "name": "handled", "version": "v1.0",
  "steps": [
    { "id": "send-report", "type": "script", "params": { "code": "send()" }, "onSuccess": null, "onFailure": "note-it" },
    { "id": "note-it", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": null }
  ]
}
`},
	},
	"sim-stub-output": {
		Fail: lint.Example{Name: "score.json", Text: stubExample, Config: "cortex: { prompt_templates: prompts.yaml }\n",
			Files: map[string]string{"prompts.yaml": stubRegistry("2")}},
		Pass: lint.Example{Name: "score.json", Text: stubExample, Config: "cortex: { prompt_templates: prompts.yaml }\n",
			Files: map[string]string{"prompts.yaml": stubRegistry("0")}},
	},
	"version-not-bumped": {
		Fail: lint.Example{Name: "hello.json", Text: helloCortex, Files: map[string]string{"old/hello.json": helloOld}},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex, Files: map[string]string{"old/hello.json": helloCortex}},
	},
	"version-bump-too-small": {
		Fail: lint.Example{Name: "hello.json", Text: strings.Replace(helloBroken, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
		Pass: lint.Example{Name: "hello.json", Text: strings.Replace(helloOld, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
	},
	"breaking-change": {
		Fail: lint.Example{Name: "hello.json", Text: strings.Replace(helloBroken, `"v1.0"`, `"v2.0"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
		Pass: lint.Example{Name: "hello.json", Text: strings.Replace(helloOld, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
	},
	"version-decreased": {
		Fail: lint.Example{Name: "hello.json", Text: strings.Replace(helloCortex, `"v1.0"`, `"v0.9"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
		Pass: lint.Example{Name: "hello.json", Text: strings.Replace(helloCortex, `"v1.0"`, `"v1.1"`, 1), Files: map[string]string{"old/hello.json": helloCortex}},
	},
	"version-mutated": {
		Fail: lint.Example{Name: "hello.json", Text: helloOld, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": helloPublished}},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": helloPublished}},
	},
	"version-unpublished": {
		Fail: lint.Example{Name: "hello.json", Text: strings.Replace(helloCortex, `"v1.0"`, `"v1.1"`, 1), Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": strings.Replace(helloPublished, "sha256:495bc69aed01ab9e37c621db47a925d9e1840a17cdf91b4fbb66c35cb25fc521", helloSumV11, 1)}},
		Pass: lint.Example{Name: "hello.json", Text: helloCortex, Config: "lock: dws.lock\n",
			Files: map[string]string{"dws.lock": helloPublished}},
	},
}

// A minimal Cortex document most core-rule examples grow from.
const helloCortex = `{
  "schemaVersion": "1.0",
  "name": "hello",
  "version": "v1.0",
  "steps": [
    { "id": "say-hi", "type": "script", "params": { "code": "console.log('hi')" }, "onSuccess": null, "onFailure": null }
  ]
}
`

// helloSum is the canonical checksum of helloCortex.
const helloSum = "sha256:495bc69aed01ab9e37c621db47a925d9e1840a17cdf91b4fbb66c35cb25fc521"

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
