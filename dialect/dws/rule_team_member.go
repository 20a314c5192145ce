package dws

import (
	"fmt"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

var teamMember = lint.Rule{
	ID: "team-member", Severity: lint.Error, Dialect: TeamID,
	Summary: "a team member's worker_ref names no worker, or that worker lacks the member's role",
	Doc: `A team member is a role filled by a worker of the job spec, named by its identity.name.
A worker_ref that names no worker leaves the role empty; a worker that does not hold the
member's role is asked to do work it does not declare. Fix the worker_ref, or give the
worker the role (role or roles in its file). Checked when dws validates the job spec.`,
	Fail: lint.Example{Name: "teams/review.json", Files: exampleJobSpec(), Text: `{
  "team": {
    "name": "contract-review-team",
    "members": [
      { "role": "implementor", "worker_ref": "contract-analyst" },
      { "role": "verifier", "worker_ref": "contract-analyst" }
    ]
  }
}
`},
	Pass: lint.Example{Name: "teams/review.json", Files: exampleJobSpec(), Text: `{
  "team": {
    "name": "contract-review-team",
    "members": [
      { "role": "implementor", "worker_ref": "contract-analyst" },
      { "role": "verifier", "worker_ref": "review-verifier" }
    ],
    "visibility": "team_only"
  }
}
`},
}

func (b *bundle) checkTeams() {
	if !b.has["workers"] {
		return
	}
	for _, d := range b.byFolder["teams"] {
		for i, m := range items(d.root.Get("team").Get("members")) {
			ptr := "/team/members/" + itoa(i)
			ref, ok := m.Get("worker_ref").Str()
			if !ok {
				continue
			}
			w := b.workers[ref]
			if w == nil {
				d.f.Report("team-member", ptr+"/worker_ref", fmt.Sprintf("team member names worker %q, which is not a worker of the job spec", ref)+
					suggest.Hint(ref, names(b.workers), "workers"))
				continue
			}
			role, ok := m.Get("role").Str()
			if ok && !contains(w.roles, role) {
				d.f.Report("team-member", ptr+"/role", fmt.Sprintf("worker %q does not hold the role %q (%s)", ref, role, w.rolesText()),
					w.d.f.Related("/identity/name", fmt.Sprintf("worker %q is defined here", ref)))
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
